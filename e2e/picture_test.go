package e2e

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/png"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"plog/picture"
)

// A teacher steps back in a scenario, opens Share and downloads the
// picture of that step, as an SVG and as a PNG for a projector, and an
// animation of the steps that led there: the SVG is well-formed and draws
// the step's records and no later ones; the PNG is twice the SVG's width
// and shows acct-1's colour; the animation has a frame for each step.
func TestPictureOfAStepForSlides(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowserProcess(t) // downloads belong to the whole browser
	downloads := b.allowDownloads(t)
	b.open(t, srv.URL+linkOf(t, ordersScenario))
	b.click(t, `.script-line[data-step="5"]`) // after produce orders key=acct-3 value=paid
	b.waitFor(t, `location.hash.endsWith("&at=5")`)
	b.openShareDialog(t)

	next := func(what string) []byte {
		t.Helper()
		select {
		case path := <-downloads:
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			return data
		case <-time.After(readyTimeout):
			t.Fatalf("the %s did not download", what)
			return nil
		}
	}
	b.click(t, "#download-svg")
	svg := next("SVG")
	b.waitText(t, "#picture-status", "plog-step-5.svg")
	var texts []string
	d := xml.NewDecoder(bytes.NewReader(svg))
	var width string
	for {
		tok, err := d.Token()
		if err != nil {
			if err != io.EOF {
				t.Fatalf("the SVG is not well-formed: %v", err)
			}
			break
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "svg" {
				for _, a := range tok.Attr {
					if a.Name.Local == "width" {
						width = a.Value
					}
				}
			}
		case xml.CharData:
			texts = append(texts, string(tok))
		}
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"step 5 of 9", "produce orders key=acct-3 value=paid", "orders/0", "acct-3", "paid"} {
		if !strings.Contains(all, want) {
			t.Errorf("the SVG does not say %q", want)
		}
	}
	if strings.Contains(all, "audit") || strings.Contains(all, "no-key") {
		t.Errorf("the SVG of step 5 draws what later steps made")
	}

	b.click(t, "#download-png")
	data := next("PNG")
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	if w, err := strconv.Atoi(width); err != nil || img.Bounds().Dx() != 2*w {
		got := img.Bounds().Dx()
		t.Errorf("the PNG is %d px wide; the SVG %s: want twice", got, width)
	}
	if !hasColour(img, picture.Palette[picture.HashLook("acct-1").Colour()][0]) {
		t.Errorf("the PNG shows no record in acct-1's colour")
	}

	// An animation of the steps that led here: each step in turn, and the
	// page stays at its step.
	b.fill(t, "#animate-from", "3")
	b.fill(t, "#animate-to", "5")
	b.click(t, "#download-animation")
	animation := string(next("animated SVG"))
	if err := xml.Unmarshal([]byte(animation), new(struct{})); err != nil {
		t.Fatalf("the animation is not well-formed: %v", err)
	}
	for _, want := range []string{"step 3 of 9", "step 4 of 9", "step 5 of 9"} {
		if !strings.Contains(animation, want) {
			t.Errorf("the animation has no frame of %s", want)
		}
	}
	if n := strings.Count(animation, "<animate "); n != 3 {
		t.Errorf("the animation has %d frames, want 3", n)
	}
	if at := b.attr(t, ".timeline", "data-position"); at != "5" {
		t.Errorf("after the animation the timeline is at step %s, want 5", at)
	}
	b.noErrors(t)
}

// hasColour reports whether an image has a pixel of a colour (#rrggbb).
func hasColour(img image.Image, hex string) bool {
	var want [3]uint32
	for i := range 3 {
		n, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		want[i] = uint32(n)
	}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr>>8 == want[0] && cg>>8 == want[1] && cb>>8 == want[2] {
				return true
			}
		}
	}
	return false
}
