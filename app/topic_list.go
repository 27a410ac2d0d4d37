package app

import (
	"fmt"
	"strings"

	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// TopicList shows every topic: its configs, how evenly its partitions are
// filled, a form to add partitions, and each partition as a lane.
type TopicList struct {
	app.Compo

	Topics  []TopicSnapshot
	Landing Landing                  // highlighted in the lanes
	Ghosts  map[string][]core.Record // removed records drawn leaving, by laneKey
}

// hotSkew is the skew from which the fullest partition is called hot: it
// holds half as much again as an even share.
const hotSkew = 1.5

// Render draws one article per topic, or a hint when the log is empty.
func (t *TopicList) Render() app.UI {
	if len(t.Topics) == 0 {
		return app.Section().Class("topics", "empty").Body(
			app.P().Text("No topics yet. Create one with the form, or open a scenario link."),
		)
	}
	return app.Section().Class("topics").Aria("label", "topics").Body(
		&LaneLegend{},
		app.Range(t.Topics).Slice(func(i int) app.UI {
			topic := t.Topics[i]
			return app.Article().Class("topic").DataSet("topic", topic.Name).Aria("label", "topic "+topic.Name).Body(
				app.Div().Class("topic-head").Body(
					app.H2().Text(topic.Name),
					app.Span().Class("skew").DataSet("skew", fmt.Sprintf("%.2f", topic.Skew)).Text(skewText(topic)),
					&PartitionsForm{Topic: topic.Name, Partitions: len(topic.Partitions)},
				),
				app.P().Class("configs").Text(configText(topic)),
				app.Range(topic.Partitions).Slice(func(j int) app.UI {
					p := topic.Partitions[j]
					landed, _ := t.Landing.rangeFor(p.Topic, p.Partition)
					return &PartitionLane{
						Partition: p,
						MaxCount:  topic.MaxCount,
						Hot:       topic.Skew >= hotSkew && p.Count == topic.MaxCount && len(topic.Partitions) > 1,
						Landed:    landed,
						Ghosts:    t.Ghosts[laneKey(p.Topic, p.Partition)],
					}
				}),
			)
		}),
	)
}

// skewText says how evenly the topic's records are spread.
func skewText(t TopicSnapshot) string {
	if t.MaxCount == 0 {
		return "empty"
	}
	return fmt.Sprintf("skew %.2f× (fullest partition over the mean; 1× is even)", t.Skew)
}

// configText lists the configs that matter most on the page.
func configText(t TopicSnapshot) string {
	var parts []string
	for _, c := range t.Configs {
		switch c.Name {
		case "cleanup.policy", "retention.ms", "retention.bytes", "segment.records", "partitioner":
			parts = append(parts, c.Name+"="+c.Value)
		}
	}
	return strings.Join(parts, " · ")
}
