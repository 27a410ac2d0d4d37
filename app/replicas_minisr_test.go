package app

import (
	"fmt"
	"html"
	"strings"
	"testing"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// With the leader alone in the ISR and min.insync.replicas=2, an acks=1
// record is stored but, under rules 3 as in Kafka 3.7+, the high watermark
// stays: the landing note and the replication view say why, citing the
// rule. Under rules 2 the record was committed at once, and neither says so.
func TestHeldHighWatermarkIsExplained(t *testing.T) {
	for _, rules := range []int{2, 3} {
		s, err := scenario.Load(fmt.Sprintf("rules %d\ntopic orders replication.factor=3 min.insync.replicas=2\nbroker crash 2\nbroker crash 3\n", rules))
		if err != nil {
			t.Fatal(err)
		}
		events, err := s.Apply("produce orders value=a acks=1")
		if err != nil {
			t.Fatal(err)
		}
		landing := landingOf(events)
		view, err := snapshotLog(s.Log(), nil)
		if err != nil {
			t.Fatal(err)
		}
		landing.noteHighWatermarks(view)
		note := &LandingNote{Landing: landing}
		d := app.NewClientTester(note)
		notePage := html.UnescapeString(app.HTMLString(note))
		d.Close()
		replicas := html.UnescapeString(clusterPage(s))

		const why = "the ISR (broker 1) is smaller than min.insync.replicas=2, so Kafka holds the high watermark until a follower catches up and rejoins (Kafka 3.7+, KAFKA-15583)"
		if rules == 2 {
			if strings.Contains(notePage, "not committed") || strings.Contains(replicas, "data-hw-held") {
				t.Errorf("rules 2: the record was committed at once, yet the page says it is not:\n%s\n%s", notePage, replicas)
			}
			continue
		}
		if want := "It is not committed: the high watermark stays at 0, and consumers read only below it. It stays because " + why; !strings.Contains(notePage, want) {
			t.Errorf("rules 3: the landing note does not say %q:\n%s", want, notePage)
		}
		if want := "The high watermark stays at 0: " + why; !strings.Contains(replicas, want) || !strings.Contains(replicas, `data-hw-held`) {
			t.Errorf("rules 3: the replication view does not say %q:\n%s", want, replicas)
		}
	}
}

// min.insync.replicas above the replication factor is taken under rules 3,
// and the replication view says which minimum Kafka uses.
func TestMinInsyncAboveTheReplicationFactorIsShown(t *testing.T) {
	s, err := scenario.Load("topic orders replication.factor=3 min.insync.replicas=4\n")
	if err != nil {
		t.Fatal(err)
	}
	replicas := html.UnescapeString(clusterPage(s))
	if want := "min.insync.replicas=4, above the replication factor: Kafka needs 3"; !strings.Contains(replicas, want) {
		t.Errorf("the replication view does not say %q:\n%s", want, replicas)
	}
	for topic, want := range map[string]string{
		"min-insync-replicas": "A value above the replication factor is accepted",
		"high-watermark":      "(Kafka 3.7 and later, KAFKA-15583)",
		"committed-offset":    "Kafka answers UNKNOWN_MEMBER_ID",
	} {
		if text := helpTopics[topic].Text; !strings.Contains(text, want) {
			t.Errorf("help %s says %q, want %q", topic, text, want)
		}
	}
}

// The group's forms say what the engine will do with a crashed member that
// keeps the group non-empty: the reset form names it, and under rules 3 the
// commit form says that a commit now comes from outside the group and
// Kafka refuses it; under rules 2 the commit form says nothing of it.
func TestGroupFormsSayWhoKeepsTheGroup(t *testing.T) {
	for _, rules := range []int{2, 3} {
		_, page := renderGroupCard(t, fmt.Sprintf("rules %d\ntopic orders partitions=1\njoin g c1 topics=orders\nadvance 5s\ncrash g c1\n", rules))
		if want := "still active: c1, crashed, kept until its session times out at 50s."; !strings.Contains(page, want) {
			t.Errorf("rules %d: the reset form does not say %q:\n%s", rules, want, page)
		}
		refused := strings.Contains(page, "No member is running, so a commit comes from outside the group: it is not empty (c1, crashed, kept until its session times out at 50s), and Kafka refuses a commit with no member id while the group has members (UNKNOWN_MEMBER_ID)")
		if refused != (rules == 3) {
			t.Errorf("rules %d: the commit form says the commit is refused: %v, want %v:\n%s", rules, refused, rules == 3, page)
		}
	}
}
