package main

import (
	"strings"
	"testing"

	"plog/core/scenario"
	"plog/picture"
)

// plogsim picture writes the SVG the page downloads for the same step: one
// renderer, so the same bytes; --at and a link's at= choose the step, and a
// step past the end is refused; --from and --to animate a range.
func TestPictureIsThePagesPicture(t *testing.T) {
	script := "topic orders partitions=2\nproduce orders key=acct-1 value=created count=2\nproduce orders key=acct-2 value=paid\n"
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(2); err != nil {
		t.Fatal(err)
	}
	want := picture.SVG(picture.At(s, "Keys"))
	code, out, errs := plogsim(t, script, "picture", "--at", "2", "--title", "Keys", "-")
	if code != 0 || out != want {
		t.Errorf("plogsim picture --at 2 = %d, %q (stderr %q), want the page's picture of step 2", code, out, errs)
	}
	link, err := scenario.EncodeLink(script)
	if err != nil {
		t.Fatal(err)
	}
	if code, out, _ := plogsim(t, "", "picture", "--title", "Keys", "--link", "#"+link+"&at=2"); code != 0 || out != want {
		t.Errorf("plogsim picture --link …&at=2 = %d, %.80q", code, out)
	}
	if code, _, errs := plogsim(t, script, "picture", "--at", "9", "-"); code != 2 || !strings.Contains(errs, "has 3 steps") {
		t.Errorf("a step past the end: exit %d, %q", code, errs)
	}
	// An animation is the page's too.
	wantAnimation, err := picture.AnimateSteps(s, 1, 3, "")
	if err != nil {
		t.Fatal(err)
	}
	if code, out, errs := plogsim(t, script, "picture", "--from", "1", "--to", "3", "-"); code != 0 || out != wantAnimation {
		t.Errorf("plogsim picture --from 1 --to 3 = %d, %.80q (stderr %q)", code, out, errs)
	}
	if code, _, errs := plogsim(t, script, "picture", "--from", "3", "--to", "1", "-"); code != 2 || !strings.Contains(errs, "first below the last") {
		t.Errorf("a range backwards: exit %d, %q", code, errs)
	}
}
