package app

import (
	"fmt"
	"slices"
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

	allLanes map[string]bool // topics whose every lane the learner asked to see
}

// lanesShown is how many lanes a topic draws until the learner asks for all:
// a topic may have 1,000 partitions, and the page must stay quick.
const lanesShown = 24

// lanes lists the partitions of a topic that are drawn: the first
// lanesShown, and those the last produce landed in, so a landing is always
// seen.
func (t *TopicList) lanes(topic TopicSnapshot) []int {
	n := len(topic.Partitions)
	if n <= lanesShown || t.allLanes[topic.Name] {
		lanes := make([]int, n)
		for i := range lanes {
			lanes[i] = i
		}
		return lanes
	}
	lanes := make([]int, 0, lanesShown+len(t.Landing.Lanes))
	for i := range lanesShown {
		lanes = append(lanes, i)
	}
	for _, r := range t.Landing.Lanes {
		if r.Topic == topic.Name && r.Partition >= lanesShown && r.Partition < n && !slices.Contains(lanes, r.Partition) {
			lanes = append(lanes, r.Partition)
		}
	}
	slices.Sort(lanes)
	return lanes
}

// moreLanesButton shows every lane of a topic, or the first few again.
func (t *TopicList) moreLanesButton(topic TopicSnapshot) app.UI {
	n := len(topic.Partitions)
	if n <= lanesShown {
		return nil
	}
	all := t.allLanes[topic.Name]
	text := fmt.Sprintf("Show all %d partitions", n)
	if all {
		text = fmt.Sprintf("Show the first %d partitions", lanesShown)
	} else {
		text += fmt.Sprintf(" (%d not drawn)", n-lanesShown)
	}
	return app.Button().Type("button").Class("more-lanes").ID("more-lanes-" + topic.Name).
		OnClick(func(ctx app.Context, e app.Event) {
			if t.allLanes == nil {
				t.allLanes = map[string]bool{}
			}
			t.allLanes[topic.Name] = !all
		}).
		Text(text)
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
			lanes := t.lanes(topic)
			return app.Article().Class("topic").DataSet("topic", topic.Name).Aria("label", "topic "+topic.Name).Body(
				app.Div().Class("topic-head").Body(
					app.H2().Text(topic.Name),
					app.Span().Class("skew").DataSet("skew", fmt.Sprintf("%.2f", topic.Skew)).Text(skewText(topic)),
					&PartitionsForm{Topic: topic.Name, Partitions: len(topic.Partitions)},
				),
				app.P().Class("configs").Text(configText(topic)),
				app.Range(lanes).Slice(func(j int) app.UI {
					p := topic.Partitions[lanes[j]]
					landed, _ := t.Landing.rangeFor(p.Topic, p.Partition)
					return &PartitionLane{
						Partition: p,
						Share:     skewShare(p.Count, topic.MaxCount),
						Hot:       topic.Skew >= hotSkew && p.Count == topic.MaxCount && len(topic.Partitions) > 1,
						Landed:    landed,
						Ghosts:    t.Ghosts[laneKey(p.Topic, p.Partition)],
					}
				}),
				t.moreLanesButton(topic),
			)
		}),
	)
}

// skewShare is a partition's count over the largest partition's, in
// percent to a tenth, as the lane's skew bar draws it.
func skewShare(count, maxCount int) string {
	if maxCount == 0 {
		return "0.0"
	}
	return fmt.Sprintf("%.1f", 100*float64(count)/float64(maxCount))
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
