package lesson

import (
	"strings"
	"testing"
)

// The producer checks, each on an attempt that makes it hold and one that
// does not, with what the learner reads.
func TestProducerChecks(t *testing.T) {
	for _, c := range []struct {
		lesson, goal, script string
		solved               bool
		says                 string
	}{
		// An idempotent producer's retry is no duplicate, and a lost
		// request is no duplicate either.
		{"idempotence", "duplicated safe", "wire safe lose-response\nproduce payments key=k value=v producer=safe", false, "safe is idempotent"},
		{"idempotence", "duplicated plain", "wire plain lose-request\nproduce payments key=k value=v producer=plain", false, "the broker saw it"},
		{"idempotence", "deduplicated plain", "wire plain lose-response\nproduce payments key=k value=v producer=plain", false, "not idempotent"},
		{"idempotence", "deduplicated safe", "wire safe lose-response after=1\nproduce payments values=a,b producer=safe", true, "sequence 1"},
		{"idempotence", "duplicated nobody", "", false, "no producer nobody"},
		// How a transaction ended, and over how many topics.
		{"transactions", "transaction shop committed topics=2", "txn shop begin\nproduce orders key=k value=v producer=shop", false, "open transaction has written to 1 topic"},
		{"transactions", "transaction shop committed", "txn shop begin\nproduce orders key=k value=v producer=shop\ntxn shop commit", true, "COMMIT at orders/"},
		{"transactions", "transaction shop aborted", "txn shop begin\nproduce orders key=k value=v producer=shop\ntxn shop commit", false, "ended committed; the goal wants one that ends aborted"},
		// A read_uncommitted group is no read_committed one, and is given
		// the aborted records.
		{"transactions", "read-committed raw orders", "", false, "isolation.level=read_uncommitted"},
		{"transactions", "read-aborted audit orders", "", false, "never given an aborted record"},
		{"transactions", "read-aborted raw orders", "", false, "abort a transaction that writes to it, then poll"},
		{"transactions", "read-aborted raw orders", "txn shop begin\nproduce orders key=k value=v producer=shop\ntxn shop abort", false, "has not read what an aborted transaction wrote to orders yet (1 record): press Poll"},
		{"transactions", "read-committed audit orders", "txn shop begin\nproduce orders key=k value=v producer=shop\ntxn shop commit", false, "has not received 1 committed record"},
		// The coordinator's timeout fences a producer too.
		{"zombie-fencing", "fenced old", "advance 2m", true, "old is fenced"},
		{"zombie-fencing", "transaction old aborted", "advance 2m", true, "transaction.timeout.ms"},
		{"zombie-fencing", "fenced new", "", false, "new is not fenced"},
		// A record written twice outside a transaction counts too.
		{"exactly-once", "committed-once payments", "produce payments key=pay-1 value=10EUR", false, "pay-1=10EUR twice"},
		{"exactly-once", "committed-once payments", "", true, "3 records"},
	} {
		l := withChecks(t, c.lesson, c.goal)
		s, err := l.Attempt(c.script)
		if err != nil {
			t.Fatalf("%s: %q: %v", c.lesson, c.script, err)
		}
		if r := l.Check(s); r.Solved != c.solved || !strings.Contains(r.Progress, c.says) {
			t.Errorf("%s: %s after %q: %+v, want solved %v saying %q", c.lesson, c.goal, c.script, r, c.solved, c.says)
		}
	}
}

// transaction takes committed or aborted, and says so at the word.
func TestTransactionOutcome(t *testing.T) {
	_, err := parseChecks([]string{"transaction shop comitted"}, 1)
	if err == nil || !strings.Contains(err.Error(), `"comitted" is not committed or aborted`) || !strings.Contains(err.Error(), "1:18") {
		t.Errorf("err = %v", err)
	}
}
