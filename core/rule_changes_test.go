package core

import "testing"

// Every rule change belongs to a version the engine has, every version
// after 1 brought one at least, and each says what it brings (but the
// consumer protocol, which no link made before it could take).
func TestRuleChangesTable(t *testing.T) {
	brought := map[int]bool{}
	for c := noRuleChange + 1; c < lastRuleChange; c++ {
		v := c.Since()
		if v <= RulesV1 || v > LatestRules {
			t.Errorf("rule change %d came with rules %d, not one of 2 to %d", c, v, LatestRules)
		}
		brought[v] = true
		if len(ruleChanges[c].phrases) == 0 && c != ConsumerGroupProtocol {
			t.Errorf("rule change %d of rules %d says nothing the page can tell", c, v)
		}
		if Follows(v-1, c) || !Follows(v, c) || !Follows(LatestRules, c) {
			t.Errorf("rule change %d of rules %d: followed from the wrong version", c, v)
		}
	}
	for v := RulesV2; v <= LatestRules; v++ {
		if !brought[v] {
			t.Errorf("rules %d brought no named change", v)
		}
	}
}
