package scenario

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"plog/core"
)

// A link carries a scenario in a URL fragment: "v1." followed by base64url
// without padding of the raw DEFLATE (RFC 1951) of the canonical script in
// UTF-8 (DecodeLink also reads the payload padded with '='). Links are
// shared by strangers, so decoding trusts nothing: every stage has a bound
// and a plain error.

// LinkPrefix starts every version 1 link fragment.
const LinkPrefix = "v1."

// Limits on what a link may carry.
const (
	// MaxLinkChars is the longest fragment DecodeLink reads (after '#').
	// Browsers keep URLs of a few MB; 512 KiB of base64 holds 384 KiB of
	// DEFLATE, far more than any script within MaxScriptBytes needs.
	MaxLinkChars = 512 << 10
	// MaxScriptBytes is the largest script a link may decompress to. It
	// stops a small "zip bomb" fragment from filling the page's memory.
	MaxScriptBytes = 1 << 20
	// MaxRecords is the most records one scenario may produce, by produce
	// commands and workloads together; Session enforces it as it applies,
	// and DecodeLink checks the produce counts written in the script. A
	// million records is what the page is built and measured to hold (a
	// lane draws a window of them); the engine keeps each in about 60 bytes
	// beyond its key and value, so a full scenario stays well under 200 MB
	// in the browser, and producing it takes a few seconds at most.
	MaxRecords = 1_000_000
	// MaxCompactedRecords bounds the records the compact commands of one
	// scenario may clean together, counted as the records each finds in
	// its topic: the cleaner reads them all, about a second and a half
	// per million in the browser when every key differs. Ten compactions
	// of the fullest topic are room enough to learn with, and a link
	// cannot make the page replay thousands of them.
	MaxCompactedRecords = 10 * MaxRecords
	// MaxWork bounds what one scenario makes the engine do over all its
	// commands together, in units of work: one per command, per record
	// produced or delivered and per event the commands report, PollWork
	// per poll, by commands and workloads alike, and for the commands that
	// go through the whole cluster, a unit per replica it has
	// (ReplicasPerAdvanceWork for an advance). Each command is
	// bounded on its own (MaxProduceCount, MaxPollRecords,
	// MaxWorkloadActions), but a short link can repeat one: a consumer
	// at 1000/s and twenty thousand "advance 1000s" would poll twenty
	// billion times, hours in the browser. A unit takes about half a
	// microsecond natively and a few in the browser, so the limit is
	// seconds of work; the lessons need under a hundred thousand units, and
	// producing the most records a scenario may, then reading them twice,
	// fits.
	MaxWork = 5 * MaxRecords
	// ReplicasPerAdvanceWork is how many replicas of the cluster make a
	// unit of an advance's work: each advance checks the retention of every
	// partition and the replication of every replica, at about a tenth of
	// a unit's time each. A broker command and a topic's config change go
	// through the whole cluster at more: a unit per replica. (A partition
	// of replication.factor=1 is one replica.)
	ReplicasPerAdvanceWork = 8
	// PollWork is the work of one poll beyond the records it delivers: a
	// poll moves the member's positions on every partition it owns, and a
	// workload's poll moves the clock first, several times the work of a
	// record produced.
	PollWork = 4
)

// EncodeLink returns the link fragment (without '#') of a script. The
// script is parsed and written canonically first, so two spellings of one
// scenario share a link. A script with no rules line runs under the latest
// rules, and its link says so: EncodeLink writes `rules N` (core.LatestRules)
// into it, after seed when it starts with one, so that the link keeps its
// meaning when the rules change again.
func EncodeLink(script string) (string, error) {
	cmds, err := Parse(script)
	if err != nil {
		return "", err
	}
	cmds, _ = withRulesLine(cmds, core.LatestRules)
	return encodeCommands(cmds)
}

// EncodeBranchLink returns the link of steps that continue a scenario (the
// steps kept aside, a fragment's branch=): the rules are their scenario's,
// so no rules line is written.
func EncodeBranchLink(script string) (string, error) {
	cmds, err := Parse(script)
	if err != nil {
		return "", err
	}
	return encodeCommands(cmds)
}

func encodeCommands(cmds []Command) (string, error) {
	return scriptLinks.Encode(Format(cmds))
}

// LinkCodec writes a text as a link payload and reads one back: "v1."
// followed by base64url without padding of the raw DEFLATE of the text in
// UTF-8, within MaxLinkChars and the codec's MaxBytes once decompressed.
// Scenario links carry scripts in it; lesson links (package lesson) carry
// lesson files.
type LinkCodec struct {
	Kind     string // what the link is, for messages: "scenario"
	Content  string // what it carries, for messages: "script"
	MaxBytes int    // the largest text it carries
}

// scriptLinks is the codec of scenario links.
var scriptLinks = LinkCodec{Kind: "scenario", Content: "script", MaxBytes: MaxScriptBytes}

// Encode returns the link payload of a text.
func (c LinkCodec) Encode(text string) (string, error) {
	if len(text) > c.MaxBytes {
		return "", fmt.Errorf("%s is %d bytes; a link holds at most %d", c.Content, len(text), c.MaxBytes)
	}
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return "", err
	}
	if _, err := io.WriteString(w, text); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return LinkPrefix + base64.RawURLEncoding.EncodeToString(buf.Bytes()), nil
}

// withRulesLine returns cmds with a `rules v` line where they have none,
// after seed when they start with one, and the step it went in at; -1 when
// they have one. The rules line may only come first or right after seed,
// so only those two are looked at.
func withRulesLine(cmds []Command, v int) ([]Command, int) {
	at := 0
	if len(cmds) > 0 && cmds[0].Name == CmdSeed {
		at = 1
	}
	for _, c := range cmds[:min(len(cmds), 2)] {
		if c.Name == CmdRules {
			return cmds, -1
		}
	}
	rules, _, _ := ParseLine(CmdRules+" "+strconv.Itoa(v), at+1)
	return slices.Insert(slices.Clone(cmds), at, rules), at
}

// WithRulesLine returns the canonical lines of a history (Session.Lines)
// with a `rules v` line where they have none, as withRulesLine does, and
// the place it went in at (-1 when they have one); v 0 is the latest. The rules line is no
// step of a session's history: positions in the history (a fragment's at=
// and branch=) do not count it.
func WithRulesLine(lines []string, v int) ([]string, int) {
	if v == 0 {
		v = core.LatestRules
	}
	if RulesLineAt(lines) >= 0 {
		return lines, -1
	}
	at := 0
	if len(lines) > 0 && strings.HasPrefix(lines[0], CmdSeed+" ") {
		at = 1
	}
	return slices.Insert(slices.Clone(lines), at, CmdRules+" "+strconv.Itoa(v)), at
}

// DecodeLink returns the script a link fragment carries. The fragment may
// start with '#'. The script must be valid UTF-8 within MaxScriptBytes, parse
// as the language, and produce at most MaxRecords records by its produce
// commands; otherwise the error says which stage failed and why.
//
// A link whose script has no rules line was made before the rules were
// numbered: it is read under rules 1 (core.RulesV1), and the script
// returned is its canonical text with `rules 1` written in (after seed when
// it starts with one), so that it replays to the state it showed.
func DecodeLink(fragment string) (string, error) {
	script, cmds, err := decodeScript(fragment)
	if err != nil {
		return "", err
	}
	if cmds, at := withRulesLine(cmds, core.RulesV1); at >= 0 {
		return Format(cmds), nil
	}
	return script, nil
}

// DecodeBranchLink returns the steps a branch link (EncodeBranchLink)
// carries, as they were written: they continue a scenario whose link has
// the rules.
func DecodeBranchLink(fragment string) (string, error) {
	script, _, err := decodeScript(fragment)
	return script, err
}

// decodeScript reads a link's script and its commands, trusting nothing.
// In the browser it lets the page run as it reads (pace): a link of
// MaxCommands lines takes about 300 ms to read there.
func decodeScript(fragment string) (string, []Command, error) {
	script, err := scriptLinks.Decode(fragment)
	if err != nil {
		return "", nil, err
	}
	cmds, err := parse(script, pace)
	if err != nil {
		return "", nil, fmt.Errorf("link script: %w", err)
	}
	n, err := declaredRecords(cmds)
	if err != nil {
		return "", nil, fmt.Errorf("link script: %w", err)
	}
	if n > MaxRecords {
		return "", nil, fmt.Errorf("link script produces %d records; at most %d are allowed", n, MaxRecords)
	}
	return script, cmds, nil
}

// Decode returns the text a link payload carries (it may start with '#'),
// trusting nothing: every stage has a bound and a plain error.
func (c LinkCodec) Decode(fragment string) (string, error) {
	fragment = strings.TrimPrefix(fragment, "#")
	if len(fragment) > MaxLinkChars {
		return "", fmt.Errorf("link is %d characters long; at most %d are read", len(fragment), MaxLinkChars)
	}
	payload, ok := strings.CutPrefix(fragment, LinkPrefix)
	if !ok {
		if v, ok := linkVersion(fragment); ok {
			return "", fmt.Errorf("link version %s is not known to this playground (it reads %s links)", v, strings.TrimSuffix(LinkPrefix, "."))
		}
		return "", fmt.Errorf("not a %s link: it should start with \"v1.\"", c.Kind)
	}
	// Links are written without padding, but a tool that pads its base64
	// (or a learner who pasted a payload from one) writes '=' at the end:
	// read those too, as padded base64url.
	encoding := base64.RawURLEncoding
	if strings.HasSuffix(payload, "=") {
		encoding = base64.URLEncoding
	}
	compressed, err := encoding.DecodeString(payload)
	if err != nil {
		var bad base64.CorruptInputError
		if errors.As(err, &bad) {
			return "", fmt.Errorf("link is not valid base64url: bad character or length at position %d after %q", int64(bad)+int64(len(LinkPrefix)), LinkPrefix)
		}
		return "", fmt.Errorf("link is not valid base64url: %v", err)
	}
	r := flate.NewReader(bytes.NewReader(compressed))
	data, err := io.ReadAll(io.LimitReader(r, int64(c.MaxBytes)+1))
	if err != nil {
		return "", fmt.Errorf("link data is not valid DEFLATE: %v", err)
	}
	if len(data) > c.MaxBytes {
		return "", fmt.Errorf("link %s is larger than %d bytes once decompressed", c.Content, c.MaxBytes)
	}
	if !utf8.Valid(data) {
		return "", fmt.Errorf("link %s is not valid UTF-8 (at byte %d)", c.Content, firstInvalidUTF8(data))
	}
	return string(data), nil
}

// linkVersion returns the version word of a text that starts like a link
// ("v1" of "v1.…", "v9" of "v9.…"), and whether it does.
func linkVersion(s string) (string, bool) {
	v, _, found := strings.Cut(s, ".")
	return v, found && len(v) > 1 && v[0] == 'v' && len(v) <= 8 && !strings.ContainsAny(v, "=&")
}

// firstInvalidUTF8 returns the byte offset of the first invalid UTF-8
// sequence in data.
func firstInvalidUTF8(data []byte) int {
	i := 0
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return i
}

// declaredRecords sums the records the produce commands of a script ask for.
func declaredRecords(cmds []Command) (int64, error) {
	var n int64
	for _, c := range cmds {
		if c.Name != CmdProduce {
			continue
		}
		count, err := c.CountOr("count", 1)
		if err != nil {
			return 0, err
		}
		n += count
	}
	return n, nil
}

// RulesLineAt returns the step of a history's rules line (first, or right
// after seed), or -1 when it has none.
func RulesLineAt(lines []string) int {
	for i, l := range lines[:min(len(lines), 2)] {
		if strings.HasPrefix(l, CmdRules+" ") {
			return i
		}
	}
	return -1
}
