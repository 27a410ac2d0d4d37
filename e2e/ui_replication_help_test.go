package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// The replication view explains its concepts: a help beside brokers,
// replicas, the leader, the ISR, min.insync.replicas, the high watermark
// and acks, and on an offline partition what offline and unclean election
// mean. A help opens from the keyboard, says what it explains and closes
// with Escape; the view with one open has no serious or critical
// accessibility violation.
func TestUIReplicationHelp(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, `topic orders replication.factor=3 min.insync.replicas=2
produce orders value=a count=3 acks=all
advance 1s
`)
	part := `[data-replicas-of="orders/0"]`
	b.waitCount(t, part, 1)
	// The lane, the broker strip and the lane's inspector.
	b.click(t, `[data-inspect-partition="orders/0"]`)
	b.waitCount(t, `[data-inspector="partition"] .replica-detail`, 1)
	view := `main`
	for _, topic := range []string{"broker", "replica", "leader", "isr", "min-insync-replicas", "high-watermark", "acks"} {
		if n := b.count(t, view+` [data-help="`+topic+`"] button.help-button[aria-label]`); n == 0 {
			t.Errorf("no labelled help on %s in the replication view", topic)
		}
	}
	if n := b.count(t, part+` [data-help="leader"]`); n != 1 {
		t.Errorf("%d leader helps on one partition, want the leader's replica's only", n)
	}

	button := part + ` [data-help=isr] button.help-button`
	b.focus(t, button)
	b.key(t, "\r")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-expanded") === "true"`, js(button)))
	b.waitText(t, part+` [data-help=isr] [role=note]`, "replica.lag.time.max.ms")
	for _, v := range runAxe(t, b) {
		t.Errorf("%s (%s): %s at %s", v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
	}
	b.key(t, "\x1b") // Escape
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-expanded") === "false"`, js(button)))

	// Crash every broker: the offline note explains offline and unclean
	// election, which its reason names.
	for _, id := range []string{"1", "2", "3"} {
		b.click(t, `.broker[data-broker="`+id+`"] [data-broker-action=crash]`)
		b.waitFor(t, `document.querySelector('.broker[data-broker="`+id+`"]').dataset.status === "down"`)
	}
	b.waitCount(t, part+` .offline [data-help="offline-partition"]`, 1)
	b.click(t, part+` .offline [data-help="unclean-election"] button.help-button`)
	b.waitText(t, part+` .offline [data-help="unclean-election"] [role=note]`, "unclean.leader.election.enable=true")
	if n := b.count(t, part+` [data-help="leader"]`); n != 0 {
		t.Errorf("an offline partition shows %d leader helps", n)
	}
	b.noErrors(t)
}
