package lesson

import (
	"encoding/hex"
	"strings"

	"plog/core/digest"
	"plog/core/scenario"
)

// A lesson link carries a lesson file, so that a teacher's lesson travels
// in a URL: #lesson=v1.PAYLOAD, where v1.PAYLOAD is written as a scenario
// link is (scenario.LinkCodec: base64url of the DEFLATE of the file's
// text), within MaxFileBytes once decompressed. A built-in lesson's name is
// a slug, which never has a '.', so lesson=NAME and lesson=v1.… cannot be
// taken for each other (IsLink).

// fileLinks is the codec of lesson links.
var fileLinks = scenario.LinkCodec{Kind: "lesson", Content: "lesson file", MaxBytes: MaxFileBytes}

// linkFileName is what a lesson from a link is called where a file name is
// wanted: a lesson file without a name: line is named "lesson".
const linkFileName = "lesson.lesson"

// IsLink reports whether lesson= holds a lesson link rather than a
// built-in lesson's name.
func IsLink(ref string) bool {
	return strings.HasPrefix(ref, scenario.LinkPrefix)
}

// EncodeLink returns the lesson link (v1.…) of a lesson file's text. The
// text must be a lesson file without errors: a link never carries one the
// page would refuse.
func EncodeLink(text string) (string, error) {
	if _, err := Parse(linkFileName, text); err != nil {
		return "", err
	}
	return fileLinks.Encode(text)
}

// DecodeLink reads a lesson link and returns its lesson and the lesson
// file's text. Each stage trusts nothing: the link's size, its
// decompressed size, the file's format (errors at the file's line and
// column), and the start's records, within the scenario language's limits.
func DecodeLink(link string) (Lesson, string, error) {
	text, err := fileLinks.Decode(link)
	if err != nil {
		return Lesson{}, "", err
	}
	l, err := ParseText(text)
	if err != nil {
		return Lesson{}, "", err
	}
	return l, text, nil
}

// ParseText reads a lesson file that comes without a file name (a link, the
// page's editor): as Parse does, and it also refuses a start that asks for
// more records than a scenario link may hold, before it is run.
func ParseText(text string) (Lesson, error) {
	l, err := Parse(linkFileName, text)
	if err != nil {
		return Lesson{}, err
	}
	if _, err := scriptLinks(l.Script); err != nil {
		return Lesson{}, &scenario.Error{Line: l.lines.start, Col: 1, Msg: "the start: " + err.Error()}
	}
	return l, nil
}

// scriptLinks checks a script as a scenario link's is checked (its records
// within scenario.MaxRecords), by writing and reading its link.
func scriptLinks(script string) (string, error) {
	link, err := scenario.EncodeBranchLink(script)
	if err != nil {
		return "", err
	}
	return scenario.DecodeBranchLink(link)
}

// TextKey is a short, stable key for a lesson file's text: the page keeps
// a lesson from a link's progress under it, so that an edited lesson is a
// new one.
func TextKey(text string) string {
	return "text-" + textID(text)
}

// textID is a lesson file's ID (Lesson.ID): 16 hex digits of the SHA-256
// of its text.
func textID(text string) string {
	sum := digest.SHA256([]byte(text))
	return hex.EncodeToString(sum[:8])
}
