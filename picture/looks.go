package picture

import (
	"cmp"
	"hash/fnv"
	"slices"
	"strings"
)

// Colours is how many colours keys are drawn in: the Okabe-Ito palette
// without its black, which readers with any common colour-vision deficiency
// can tell apart. theme.css defines the page's .key-0 to .key-6 with the
// same colours (Palette; a test holds them together), and text colours that
// keep WCAG AA contrast.
const Colours = 7

// Shapes is how many shapes a key's second cue has (● ▲ ■ ◆, drawn after
// the record's offset). Seven colours cannot tell more than seven keys
// apart; colour and shape together tell 28, and the key's text, always
// written in the box, tells the rest.
const Shapes = 4

// Looks is how many looks there are.
const Looks = Colours * Shapes

// Palette is each colour's fill and text, as theme.css draws .record.key-N.
var Palette = [Colours][2]string{
	{"#e69f00", "#000"},
	{"#56b4e9", "#000"},
	{"#009e73", "#000"},
	{"#f0e442", "#000"},
	{"#0072b2", "#fff"},
	{"#d55e00", "#000"},
	{"#cc79a7", "#000"},
}

// ShapeMarks are the shapes' characters, in shape order.
var ShapeMarks = [Shapes]string{"●", "▲", "■", "◆"}

// Look is how a key is drawn: one of the 28 pairs of a colour and a shape,
// colour look%Colours, shape look/Colours.
type Look uint8

// Colour is the look's colour, an index into Palette.
func (l Look) Colour() int { return int(l) % Colours }

// Shape is the look's shape, an index into ShapeMarks.
func (l Look) Shape() int { return int(l) / Colours }

// KeyHash is the key's FNV-1a hash: a key looks the same in every lane, on
// every reload and in every browser.
func KeyHash(key string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(key))
	return h.Sum32()
}

// HashLook is the key's own look, from its hash: colour the hash modulo
// the colours, shape the quotient's modulo the shapes, so that keys of one
// colour are spread over the shapes (together, the hash modulo 28).
func HashLook(key string) Look {
	return Look(KeyHash(key) % Looks)
}

// AssignLooks gives keys drawn together looks no two of them share, while
// there are at most 28 of them: the hash's look alone gave order-3 and
// order-8 the same colour and shape. Each key keeps its hash's look unless
// a key before it took that look, and then takes the next one free; keys
// go in order of their hash's look, then of their text, so a key's look
// depends on the keys drawn beside it only, not on the order they came in.
// Past 28 distinct keys no assignment keeps them apart: it returns nil,
// and each key keeps its hash's look (its text is in every box too).
func AssignLooks(keys []string) map[string]Look {
	looks := make(map[string]Look, len(keys))
	for _, k := range keys {
		if _, ok := looks[k]; !ok {
			if len(looks) == Looks {
				return nil
			}
			looks[k] = HashLook(k)
		}
	}
	ordered := make([]string, 0, len(looks))
	for k := range looks {
		ordered = append(ordered, k)
	}
	slices.SortFunc(ordered, func(a, b string) int {
		return cmp.Or(cmp.Compare(looks[a], looks[b]), strings.Compare(a, b))
	})
	var taken [Looks]bool
	for _, k := range ordered {
		l := looks[k]
		for taken[l] {
			l = (l + 1) % Looks
		}
		taken[l], looks[k] = true, l
	}
	return looks
}
