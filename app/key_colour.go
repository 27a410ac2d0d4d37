package app

import (
	"hash/fnv"
	"strconv"
)

// keyColours is how many colours keys are drawn in: the Okabe-Ito palette
// without its black, which readers with any common colour-vision deficiency
// can tell apart. theme.css defines .key-0 to .key-6 with text colours that
// keep WCAG AA contrast.
const keyColours = 7

// keyShapes is how many shapes a key's second cue has (theme.css draws
// them after the record's offset: ● ▲ ■ ◆). Seven colours cannot tell more
// than seven keys apart; colour and shape together tell 28, and the key's
// text, always written in the box, tells the rest.
const keyShapes = 4

// keyHash is the key's FNV-1a hash: a key looks the same in every lane, on
// every reload and in every browser.
func keyHash(key string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(key))
	return h.Sum32()
}

// keyColourClass returns the CSS class of a key's colour.
func keyColourClass(key string) string {
	return "key-" + strconv.Itoa(int(keyHash(key)%keyColours))
}

// keyShape returns the key's shape, its cue besides colour (the record's
// data-key-shape). It comes from the hash's quotient by the colours, so
// that keys of one colour are spread over the shapes.
func keyShape(key string) int {
	return int(keyHash(key) / keyColours % keyShapes)
}
