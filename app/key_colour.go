package app

import (
	"hash/fnv"
	"strconv"
)

// keyColours is how many colours keys are drawn in: the Okabe-Ito palette
// without its black, which readers with any common colour-vision deficiency
// can tell apart. plog.css defines .key-0 to .key-6 with text colours that
// keep WCAG AA contrast; the key's text is always shown too, since seven
// colours cannot tell every key apart.
const keyColours = 7

// keyColourClass returns the CSS class of a key's colour. It hashes the key
// (FNV-1a), so a key has the same colour in every lane, on every reload and
// in every browser.
func keyColourClass(key string) string {
	h := fnv.New32a()
	h.Write([]byte(key))
	return "key-" + strconv.Itoa(int(h.Sum32()%keyColours))
}
