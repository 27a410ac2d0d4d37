package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// TopicList shows every topic with its partitions as lanes.
type TopicList struct {
	app.Compo

	Topics []TopicSnapshot
}

// Render draws one section per topic, or a hint when the log is empty.
func (t *TopicList) Render() app.UI {
	if len(t.Topics) == 0 {
		return app.Section().Class("topics empty").Body(
			app.P().Text("No topics yet. Open a scenario link to see one."),
		)
	}
	return app.Section().Class("topics").Body(
		app.Range(t.Topics).Slice(func(i int) app.UI {
			topic := t.Topics[i]
			return app.Article().Class("topic").DataSet("topic", topic.Name).Body(
				app.H2().Text(topic.Name),
				app.Range(topic.Partitions).Slice(func(j int) app.UI {
					return &PartitionLane{Partition: topic.Partitions[j]}
				}),
			)
		}),
	)
}
