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
