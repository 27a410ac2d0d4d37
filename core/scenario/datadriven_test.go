package scenario

import (
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestDataDriven runs the scripts in testdata/*.txt, one file per area of
// the language. Rewrite the expected output with
//
//	go test ./core/scenario/ -run TestDataDriven -rewrite
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if !strings.HasSuffix(path, ".txt") {
			t.Skip("not a datadriven file")
		}
		h := &harness{}
		datadriven.RunTest(t, path, h.run)
	})
}

// harness holds what a datadriven file builds up between directives.
type harness struct {
	session *Session
}

func (h *harness) run(t *testing.T, d *datadriven.TestData) string {
	switch d.Cmd {
	case "parse":
		// Prints the canonical script, or the error.
		cmds, err := Parse(d.Input)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		out := Format(cmds)
		again, err := Parse(out)
		if err != nil || Format(again) != out {
			t.Fatalf("canonical text does not read back: %v\n%s", err, out)
		}
		return out
	case "encode-link":
		link, err := EncodeLink(d.Input)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		return link + "\n"
	case "load-link":
		// The golden corpus: a link, its script and the state it makes.
		script, err := DecodeLink(d.Input)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		s, err := Load(script)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		return script + "----\n" + StateText(s.Log())
	case "decode-link":
		script, err := DecodeLink(d.Input)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		return script
	default:
		if out, ok := h.runSession(t, d); ok {
			return out
		}
	}
	t.Fatalf("%s: unknown directive %q", d.Pos, d.Cmd)
	return ""
}
