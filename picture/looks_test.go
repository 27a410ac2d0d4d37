package picture

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// collidingKeys finds two keys whose hashes give the same look, the first
// before the second in text order.
func collidingKeys(t *testing.T) (first, second string) {
	t.Helper()
	byLook := map[Look]string{}
	for i := range 10_000 {
		k := fmt.Sprintf("acct-%d", i)
		if other, ok := byLook[HashLook(k)]; ok {
			return min(other, k), max(other, k)
		}
		byLook[HashLook(k)] = k
	}
	t.Fatal("no two keys share a look")
	return "", ""
}

// A key keeps its look when a new key whose hash gives the same look comes:
// drawn from scratch, the new key, first in text order, would take that
// look and move the older one.
func TestAKeyKeepsItsLookAsNewKeysCome(t *testing.T) {
	first, second := collidingKeys(t)
	if fresh := AssignLooks([]string{second, first}); fresh[second] == HashLook(second) {
		t.Fatalf("the test needs %s to lose its look to %s when drawn afresh", second, first)
	}
	var m LookMemory
	was := m.Assign([]string{second})[second]
	if was != HashLook(second) {
		t.Fatalf("a key drawn alone has look %d, not its hash's %d", was, HashLook(second))
	}
	now := m.Assign([]string{second, first})
	if now[second] != was {
		t.Errorf("%s changed look from %d to %d when %s came", second, was, now[second], first)
	}
	if now[first] == now[second] {
		t.Errorf("%s and %s share look %d", first, second, now[first])
	}
}

// A memory starts as the site generator draws: the looks of the keys drawn
// afresh; past Looks keys it gives none and starts again.
func TestLookMemoryStartsAsAFreshDrawing(t *testing.T) {
	first, second := collidingKeys(t)
	keys := []string{second, first, "x", "y"}
	var m LookMemory
	got, want := m.Assign(keys), AssignLooks(keys)
	for _, k := range keys {
		if got[k] != want[k] {
			t.Errorf("%s: memory's first look %d, drawn afresh %d", k, got[k], want[k])
		}
	}
	var many []string
	for i := range Looks + 1 {
		many = append(many, fmt.Sprintf("k%d", i))
	}
	if m.Assign(many) != nil {
		t.Error("more keys than looks got looks")
	}
	if got := m.Assign([]string{second, first}); got[first] != AssignLooks([]string{second, first})[first] {
		t.Errorf("after too many keys the memory did not start afresh: %v", got)
	}
}

// Whatever keys come and go, keys drawn together never share a look while
// there are at most Looks of them, and a key drawn in two steps running keeps
// its look.
func TestLookMemoryKeepsKeysApartAndSteady(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var m LookMemory
		last := map[string]Look{}
		for range rapid.IntRange(1, 20).Draw(t, "steps") {
			keys := rapid.SliceOfN(rapid.StringMatching(`k[0-9]{1,2}`), 0, 40).Draw(t, "keys")
			looks := m.Assign(keys)
			distinct := map[string]bool{}
			for _, k := range keys {
				distinct[k] = true
			}
			if len(distinct) > Looks {
				if looks != nil {
					t.Fatalf("%d keys got looks", len(distinct))
				}
				last = map[string]Look{}
				continue
			}
			byLook := map[Look]string{}
			for k := range distinct {
				l, ok := looks[k]
				if !ok {
					t.Fatalf("%s drawn without a look", k)
				}
				if other, ok := byLook[l]; ok {
					t.Fatalf("%s and %s share look %d", k, other, l)
				}
				byLook[l] = k
				if was, ok := last[k]; ok && was != l {
					t.Fatalf("%s changed look from %d to %d", k, was, l)
				}
			}
			last = map[string]Look{}
			for k := range distinct {
				last[k] = looks[k]
			}
		}
	})
}
