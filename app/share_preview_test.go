package app

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"
	"testing"
)

// previewFile is the picture link previews show (og:image), drawn here so
// that it follows the page's colours; serve.go points og:image at it.
const previewFile = "../web/static/preview.png"

// TestPreviewImageIsDrawnFromThePage keeps web/static/preview.png what
// drawPreview draws. Redraw it with -rewrite.
func TestPreviewImageIsDrawnFromThePage(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, drawPreview()); err != nil {
		t.Fatal(err)
	}
	got := golden(t, previewFile, buf.Bytes())
	if !bytes.Equal(got, buf.Bytes()) {
		t.Errorf("%s is not what drawPreview draws: redraw it with go test ./app/ -run Preview -rewrite", previewFile)
	}
	img, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	// 1200×630 is the size link previews crop least.
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 630 {
		t.Errorf("preview is %v, want 1200×630", b.Size())
	}
}

// The page's colours (web/static/plog.css): the background, lane borders,
// and the Okabe-Ito colours records take from their keys.
var (
	previewBackground = color.RGBA{0x0f, 0x17, 0x2a, 0xff}
	previewLine       = color.RGBA{0x33, 0x41, 0x55, 0xff}
	previewText       = color.RGBA{0xe2, 0xe8, 0xf0, 0xff}
	previewKeys       = []color.RGBA{
		{0xe6, 0x9f, 0x00, 0xff}, {0x56, 0xb4, 0xe9, 0xff}, {0x00, 0x9e, 0x73, 0xff},
		{0xf0, 0xe4, 0x42, 0xff}, {0x00, 0x72, 0xb2, 0xff}, {0xd5, 0x5e, 0x00, 0xff}, {0xcc, 0x79, 0xa7, 0xff},
	}
)

// previewGlyphs spell the name in a 5×9 pixel face; '#' is ink.
var previewGlyphs = map[rune]string{
	'p': "..... ..... ####. #...# #...# #...# ####. #.... #....",
	'l': ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###. ..... .....",
	'o': "..... ..... .###. #...# #...# #...# .###. ..... .....",
	'g': "..... ..... .#### #...# #...# #...# .#### ....# .###.",
}

// drawPreview draws the name over three partition lanes of keyed records.
func drawPreview() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 1200, 630))
	fill := func(r image.Rectangle, c color.Color) {
		draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
	}
	fill(img.Bounds(), previewBackground)

	const cell = 14
	x := 80
	for _, ch := range "plog" {
		for row, bits := range strings.Fields(previewGlyphs[ch]) {
			for col, bit := range bits {
				if bit == '#' {
					at := image.Pt(x+col*cell, 60+row*cell)
					fill(image.Rectangle{Min: at, Max: at.Add(image.Pt(cell, cell))}, previewText)
				}
			}
		}
		x += 6 * cell
	}

	// Lanes: each partition's records, keys coloured, the newest at the right.
	keysOfLane := [][]int{{0, 2, 0, 0, 5, 2, 0, 2, 5, 0, 2, 0, 5, 5}, {1, 1, 3, 1, 3, 3, 1, 3, 1, 1}, {4, 6, 6, 4, 4, 6, 4, 6, 6, 4, 4, 6}}
	for lane, keys := range keysOfLane {
		top := 260 + lane*110
		outer := image.Rect(80, top, 1120, top+84)
		fill(outer, previewLine)
		fill(outer.Inset(3), previewBackground)
		for i, k := range keys {
			left := 100 + i*70
			fill(image.Rect(left, top+14, left+58, top+70), previewKeys[k])
		}
	}
	return img
}
