package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The Share dialog's picture buttons offer the picture of the step the page
// shows: the SVG itself, and the same SVG handed to the browser for a PNG
// twice its size, each named after the step.
func TestPictureOfTheStepDownloads(t *testing.T) {
	b := useBrowser(t)
	_, d := mountAt(t, mustLink(t, "topic orders partitions=2\nproduce orders key=acct-1 value=created count=2\nproduce orders key=acct-2 value=paid\n")+"&at=2")
	for _, scale := range []int{0, pngScale} {
		d.Context().Dispatch(func(ctx app.Context) {
			ctx.NewActionWithValue(pictureAction, pictureRequest{Scale: scale})
		})
		d.Consume()
	}
	files := b.Downloads()
	if len(files) != 2 || files[0].Name != "plog-step-2.svg" || files[1].Name != "plog-step-2@2x.png" {
		t.Fatalf("downloads %v, want the SVG and the PNG of step 2", files)
	}
	for _, f := range files {
		if !strings.HasPrefix(f.Text, "<svg") || !strings.Contains(f.Text, "step 2 of 3") || !strings.Contains(f.Text, "created") || strings.Contains(f.Text, "paid") {
			t.Errorf("%s does not draw step 2 (acct-1's records, not yet acct-2's):\n%.400s", f.Name, f.Text)
		}
	}
}

// An animation of steps leaves the page at its step; a range that does
// not fit is said beside the buttons, and nothing downloads.
func TestAnimationOfStepsDownloads(t *testing.T) {
	b := useBrowser(t)
	p, d := mountAt(t, mustLink(t, "topic orders partitions=2\nproduce orders key=acct-1 value=created count=2\nproduce orders key=acct-2 value=paid\n")+"&at=2")
	ask := func(from, to int) {
		d.Context().Dispatch(func(ctx app.Context) {
			ctx.NewActionWithValue(pictureAction, pictureRequest{Animate: true, From: from, To: to})
		})
		d.Consume()
	}
	ask(0, 3)
	files := b.Downloads()
	if len(files) != 1 || files[0].Name != "plog-steps-0-3.svg" || strings.Count(files[0].Text, "<animate ") != 4 {
		t.Fatalf("downloads %v, want an animation of steps 0 to 3", files)
	}
	if p.session.Position() != 2 {
		t.Errorf("after the animation the page is at step %d, want 2", p.session.Position())
	}
	ask(3, 1)
	if len(b.Downloads()) != 1 {
		t.Errorf("a range backwards downloaded %v", b.Downloads())
	}
	var alert ControlAlert
	d.Context().GetState(controlAlertState, &alert)
	if alert.Control != pictureControl || !strings.Contains(alert.Message, "The animation did not download") {
		t.Errorf("a range backwards is said as %+v", alert)
	}
}
