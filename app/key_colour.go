package app

import (
	"cmp"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
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

// keyLook is how a key is drawn: one of the 28 pairs of a colour and a
// shape, colour look%keyColours, shape look/keyColours.
type keyLook uint8

// keyLooks is how many looks there are.
const keyLooks = keyColours * keyShapes

// hashLook is the key's own look, from its hash: colour the hash modulo
// the colours, shape the quotient's modulo the shapes, so that keys of one
// colour are spread over the shapes (together, the hash modulo 28).
func hashLook(key string) keyLook {
	return keyLook(keyHash(key) % keyLooks)
}

// colourClass returns the CSS class of the look's colour.
func (k keyLook) colourClass() string {
	return "key-" + strconv.Itoa(int(k)%keyColours)
}

// shape returns the look's shape, its cue besides colour (the record's
// data-key-shape).
func (k keyLook) shape() int {
	return int(k) / keyColours
}

// assignLooks gives the keys the page draws at once looks no two of them
// share, while there are at most 28 of them: the hash's look alone gave
// order-3 and order-8 the same colour and shape. Each key keeps its hash's
// look unless a key before it took that look, and then takes the next one
// free; keys go in order of their hash's look, then of their text, so a
// key's look depends on the keys drawn beside it only, not on the order
// the learner came to them in. It reads the lanes the page draws first (the
// first topicsShown topics, the first lanesShown lanes of each), which
// bounds its work in a scenario of thousands; past 28 distinct keys no
// assignment can keep them apart, and each key keeps its hash's look (the
// key is written in every box too).
func assignLooks(topics []TopicSnapshot) {
	looks := map[string]keyLook{}
	for _, t := range topics[:min(len(topics), topicsShown)] {
		for _, p := range t.Partitions[:min(len(t.Partitions), lanesShown)] {
			for _, r := range p.Records {
				if !r.HasKey {
					continue
				}
				if _, ok := looks[r.Key]; !ok {
					if len(looks) == keyLooks {
						return // more keys than looks
					}
					looks[r.Key] = hashLook(r.Key)
				}
			}
		}
	}
	keys := make([]string, 0, len(looks))
	for k := range looks {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(looks[a], looks[b]), strings.Compare(a, b))
	})
	var taken [keyLooks]bool
	for _, k := range keys {
		l := looks[k]
		for taken[l] {
			l = (l + 1) % keyLooks
		}
		taken[l], looks[k] = true, l
	}
	for ti := range topics[:min(len(topics), topicsShown)] {
		parts := topics[ti].Partitions
		for pi := range parts[:min(len(parts), lanesShown)] {
			p := &parts[pi]
			for i, r := range p.Records {
				if l, ok := looks[r.Key]; ok && r.HasKey && l != hashLook(r.Key) {
					if p.Looks == nil {
						p.Looks = make([]keyLook, len(p.Records))
						for j, o := range p.Records {
							p.Looks[j] = hashLook(o.Key)
						}
					}
					p.Looks[i] = l
				}
			}
		}
	}
}

// lookOf is the look of the i-th record drawn in a lane.
func (p PartitionSnapshot) lookOf(i int) keyLook {
	if p.Looks != nil {
		return p.Looks[i]
	}
	return hashLook(p.Records[i].Key)
}
