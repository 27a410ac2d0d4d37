package app

import (
	"html"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The topic config form says what the chosen config does and how its
// defaults compare with Kafka's, from the engine's config registry; the
// group config form's fields and the brokers form's replica.lag.time.max.ms
// carry the same help as their titles.
func TestConfigFormsHelp(t *testing.T) {
	tests := []struct {
		name, config, want string
	}{
		{"default departs from Kafka's", "retention.ms", "Kafka's default is 7d; the playground's is 1h."},
		{"Kafka's default kept", "min.insync.replicas", "Above the replication factor, every replica is needed. Kafka's default is 1."},
		{"the playground's own", "segment.records", "A config of the playground's own, not Kafka's (default 10)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &TopicConfigForm{Topics: []TopicSnapshot{{Name: "views"}}, name: tt.config}
			d := app.NewClientTester(f)
			defer d.Close()
			page := html.UnescapeString(app.HTMLString(f))
			if !strings.Contains(page, `data-config-help="`+tt.config+`"`) || !strings.Contains(page, tt.want) {
				t.Errorf("the form for %s does not say %q:\n%s", tt.config, tt.want, page)
			}
		})
	}
	t.Run("cluster field", func(t *testing.T) {
		f := &BrokersForm{Brokers: 3, LagMaxMs: 30_000}
		d := app.NewClientTester(f)
		defer d.Close()
		want := `title="A follower that has not caught up with the leader's log end for this long leaves the ISR. Kafka's default is 30s."`
		if page := html.UnescapeString(app.HTMLString(f)); !strings.Contains(page, want) {
			t.Errorf("the brokers form does not say %s:\n%s", want, page)
		}
	})
	t.Run("group fields", func(t *testing.T) {
		f := &GroupConfigForm{Group: "g"}
		d := app.NewClientTester(f)
		defer d.Close()
		page := html.UnescapeString(app.HTMLString(f))
		for _, want := range []string{
			`title="How long the coordinator waits for a member that stopped heartbeating`,
			"Kafka's default is 45s.",
			"A config of the playground's own, not Kafka's (default 3s).",
		} {
			if !strings.Contains(page, want) {
				t.Errorf("the group config form does not say %q:\n%s", want, page)
			}
		}
	})
}
