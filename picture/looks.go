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

// LookMemory keeps the looks it gave, so that a key keeps its look while the
// page goes on: AssignLooks alone depends on every key drawn, and a new key
// whose hash's look another held moved that other key to the next look, so
// that acct-2's records changed colour when acct-3 arrived. The memory
// gives a new key its hash's look, or the next one no drawn key holds,
// taking it from a key remembered but no longer drawn; keys already drawn
// keep theirs. It starts, and starts again past Looks keys, from
// AssignLooks, so that a page opened on a scenario draws it as the site
// generator does. The zero value is an empty memory.
type LookMemory struct {
	looks map[string]Look // at most one key per look, so at most Looks keys
}

// Assign returns the looks of the keys drawn now (and of keys remembered
// from before), or nil past Looks distinct keys, where each key keeps its
// hash's look.
func (m *LookMemory) Assign(keys []string) map[string]Look {
	drawn := make(map[string]bool, len(keys))
	var fresh []string
	for _, k := range keys {
		if drawn[k] {
			continue
		}
		if len(drawn) == Looks {
			m.looks = nil
			return nil
		}
		drawn[k] = true
		if _, ok := m.looks[k]; !ok {
			fresh = append(fresh, k)
		}
	}
	if m.looks == nil {
		m.looks = AssignLooks(keys)
		return m.looks
	}
	var holder [Looks]string   // the remembered key each look is held by
	var remembered [Looks]bool // a look some remembered key holds (a key may be "")
	var held [Looks]bool       // a look a drawn key holds
	for k, l := range m.looks {
		holder[l], remembered[l] = k, true
		if drawn[k] {
			held[l] = true
		}
	}
	// New keys in the order AssignLooks takes them, so that the memory is
	// the same whichever order they came in within one step.
	slices.SortFunc(fresh, func(a, b string) int {
		return cmp.Or(cmp.Compare(HashLook(a), HashLook(b)), strings.Compare(a, b))
	})
	for _, k := range fresh {
		l := HashLook(k)
		for held[l] {
			l = (l + 1) % Looks
		}
		if remembered[l] {
			delete(m.looks, holder[l])
		}
		m.looks[k], holder[l], remembered[l], held[l] = l, k, true, true
	}
	return m.looks
}
