package app

import (
	"html"
	"strings"
	"testing"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A record's tooltip says whose clock its timestamp is, from the topic's
// message.timestamp.type, and the topic config form explains the config.
func TestRecordTooltipSaysTheTimestampType(t *testing.T) {
	for _, tt := range []struct{ script, want string }{
		{"topic t partitions=1\nadvance 5s\nproduce t key=k value=v\n", "at 5s (CreateTime: the producer's clock when it sent the record)"},
		{"topic t partitions=1 message.timestamp.type=LogAppendTime\nadvance 5s\nproduce t key=k value=v\n", "at 5s (LogAppendTime: the broker's clock when it appended the record)"},
	} {
		s, err := scenario.Load(tt.script)
		if err != nil {
			t.Fatal(err)
		}
		view, err := snapshotLog(s.Log(), nil)
		if err != nil {
			t.Fatal(err)
		}
		lane := &PartitionLane{Partition: view.Topics[0].Partitions[0]}
		d := app.NewClientTester(lane)
		page := html.UnescapeString(app.HTMLString(lane))
		d.Close()
		if !strings.Contains(page, `title="offset 0 · key `) || !strings.Contains(page, ` · `+tt.want+`"`) {
			t.Errorf("%q: the record's tooltip does not say %q:\n%s", tt.script, tt.want, page)
		}
	}
	f := &TopicConfigForm{Topics: []TopicSnapshot{{Name: "t"}}, name: "message.timestamp.type"}
	d := app.NewClientTester(f)
	defer d.Close()
	want := "Which clock a record's timestamp comes from: CreateTime, the producer's when it sent the record; LogAppendTime, the broker's when it appended it. Kafka's default is CreateTime."
	if page := html.UnescapeString(app.HTMLString(f)); !strings.Contains(page, want) {
		t.Errorf("the config form does not say %q:\n%s", want, page)
	}
}

// The smaller rules have their words where the learner looks: the truncate
// form's help says what -1 means in Kafka, the tombstone's that Kafka takes
// a record with neither key nor value, the timestamp's which clock.
func TestSmallerRulesAreExplained(t *testing.T) {
	c := &CleanupControls{Topics: []TopicSnapshot{{Name: "t", Partitions: []PartitionSnapshot{{Topic: "t"}}}}}
	d := app.NewClientTester(c)
	page := app.HTMLString(c)
	d.Close()
	if !strings.Contains(page, `data-help="delete-records"`) {
		t.Errorf("the truncate form has no help on DeleteRecords:\n%s", page)
	}
	for topic, want := range map[string]string{
		"delete-records": `Kafka also reads the offset -1 as "the high watermark"`,
		"tombstone":      "Kafka also takes a record with neither key nor value, on a topic that is not compacted",
		"timestamp":      "message.timestamp.type=LogAppendTime has the broker stamp each record",
	} {
		if text := helpTopics[topic].Text; !strings.Contains(text, want) {
			t.Errorf("help %s says %q, want %q", topic, text, want)
		}
	}
}
