package e2e

import (
	"strings"
	"testing"
)

// Where a learner meets named producers, transactions and share groups,
// the help says how plog differs from Kafka there: the Producers panel's
// help, a transactional producer's, a group's isolation.level and the
// Share groups heading each link to their entry of the list.
func TestUIDifferencesOfProducersAndShareGroups(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders\nproducer-config t transactional.id=tx\njoin g c1 topics=orders\nshare-join work w1 topics=orders\n")
	b.waitCount(t, `[data-producer=t]`, 1)
	for _, c := range []struct{ help, entry, says string }{
		{`[data-producers] h2 [data-help="named-producer"]`, "named-producers", "Every record is a batch of its own"},
		{`[data-producer=t] .producer-txn [data-help="transaction"]`, "transactions", "The coordinator's state lives in the engine"},
		{b.groupInspector(t, "g") + ` [data-help="isolation-level"]`, "isolation-level", "isolation.level is set on the group"},
		{`[data-share-groups] h2 [data-help="share-group"]`, "share-groups", "Locks expire on the virtual clock"},
	} {
		b.click(t, c.help+" .help-button")
		link := c.help + ` .help-popover [data-difference-link="` + c.entry + `"]`
		b.waitCount(t, link, 1)
		b.click(t, link)
		b.waitFor(t, `document.getElementById("differences-details").open === true`)
		b.waitFor(t, `document.activeElement && document.activeElement.dataset.difference === "`+c.entry+`"`)
		if got := b.text(t, `[data-difference="`+c.entry+`"]`); !strings.Contains(got, c.says) {
			t.Errorf("%s's entry %s says %q, want %q in it", c.help, c.entry, got, c.says)
		}
		b.click(t, c.help+" .help-button") // closes it again
	}
	b.noErrors(t)
}
