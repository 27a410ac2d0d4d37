package scenario

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// runSession handles the datadriven directives that drive a Session:
//
//	run [events] [json]   load the input as a fresh session; print its state
//	apply                 apply each input line in turn; print its events
//	gesture               apply the input's lines as one gesture (ApplyLines);
//	                      print its events, or its error, then the history
//	state | json          print the current state as text or JSON
//	undo | redo | seek step=N | restore
//	                      move in the history; print the history
//	history               print the history with the position marked
func (h *harness) runSession(t *testing.T, d *datadriven.TestData) (string, bool) {
	var b strings.Builder
	switch d.Cmd {
	case "run":
		s, err := Load(d.Input)
		h.session = s
		if err != nil {
			fmt.Fprintf(&b, "error: %v\n", err)
		}
		if d.HasArg("events") {
			for _, e := range s.Events() {
				b.WriteString(EventText(e) + "\n")
			}
		}
		if d.HasArg("json") {
			data, err := StateJSON(s.Log())
			if err != nil {
				t.Fatal(err)
			}
			b.Write(data)
		} else {
			b.WriteString(StateText(s.Log()))
		}
	case "apply":
		s := h.sessionFor()
		for _, line := range strings.Split(d.Input, "\n") {
			fmt.Fprintf(&b, "> %s\n", line)
			events, err := s.Apply(line)
			if err != nil {
				fmt.Fprintf(&b, "error: %v\n", err)
				continue
			}
			for _, e := range events {
				b.WriteString(EventText(e) + "\n")
			}
		}
	case "gesture":
		s := h.sessionFor()
		events, err := s.ApplyLines(strings.Split(d.Input, "\n"))
		if err != nil {
			fmt.Fprintf(&b, "error: %v\n", err)
		} else {
			for _, e := range events {
				b.WriteString(EventText(e) + "\n")
			}
		}
		b.WriteString(historyText(s))
		b.WriteString(StateText(s.Log()))
	case "state":
		b.WriteString(StateText(h.sessionFor().Log()))
	case "json":
		data, err := StateJSON(h.sessionFor().Log())
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	case "undo", "redo", "seek", "restore", "history":
		s := h.sessionFor()
		var err error
		switch d.Cmd {
		case "undo":
			err = s.Undo()
		case "redo":
			err = s.Redo()
		case "seek":
			var step int
			d.ScanArgs(t, "step", &step)
			err = s.Seek(step)
		case "restore":
			err = s.RestoreDiscarded()
		}
		if err != nil {
			fmt.Fprintf(&b, "error: %v\n", err)
		}
		b.WriteString(historyText(s))
	default:
		return "", false
	}
	return b.String(), true
}

func (h *harness) sessionFor() *Session {
	if h.session == nil {
		h.session = NewSession()
	}
	return h.session
}

// historyText lists the history with "→" before the next command to apply.
func historyText(s *Session) string {
	var b strings.Builder
	fmt.Fprintf(&b, "position %d of %d, time %s\n", s.Position(), s.Len(), formatDuration(s.Log().Now()))
	for i, line := range s.Lines() {
		marker := "  "
		if i == s.Position() {
			marker = "→ "
		}
		fmt.Fprintf(&b, "%s%d %s\n", marker, i+1, line)
	}
	if s.Position() == s.Len() {
		b.WriteString("→ (end)\n")
	}
	if d := s.Discarded(); d != nil {
		fmt.Fprintf(&b, "replaced, can be restored: %s\n", strings.Join(d, " | "))
	}
	return b.String()
}
