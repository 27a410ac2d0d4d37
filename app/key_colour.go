package app

import (
	"strconv"

	"plog/picture"
)

// keyColours is how many colours keys are drawn in (picture.Colours):
// theme.css defines .key-0 to .key-6.
const keyColours = picture.Colours

// keyLooks is how many looks there are.
const keyLooks = picture.Looks

// keyLook is how a key is drawn: one of the 28 pairs of a colour and a
// shape (picture.Look), the same in the page and in its pictures.
type keyLook = picture.Look

// hashLook is the key's own look, from its hash.
func hashLook(key string) keyLook { return picture.HashLook(key) }

// colourClass returns the CSS class of the look's colour.
func colourClass(k keyLook) string {
	return "key-" + strconv.Itoa(k.Colour())
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
// key is written in every box too). With a memory (the page's), keys
// drawn before keep their looks as new keys come (picture.LookMemory);
// without one, the looks are the keys' drawn now alone, as the site
// generator draws them.
func assignLooks(topics []TopicSnapshot, memory *picture.LookMemory) {
	var keys []string
	for _, t := range topics[:min(len(topics), topicsShown)] {
		for _, p := range t.Partitions[:min(len(t.Partitions), lanesShown)] {
			for _, r := range p.Records {
				if r.HasKey {
					keys = append(keys, r.Key)
				}
			}
		}
	}
	if memory == nil {
		memory = &picture.LookMemory{}
	}
	looks := memory.Assign(keys)
	if looks == nil {
		return // more keys than looks
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
