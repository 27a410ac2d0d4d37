package app

import (
	"fmt"
	"slices"
	"strings"

	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// TopicList shows the topics: its configs, how evenly its partitions are
// filled, a form to add partitions, and each partition as a lane. It draws
// a window of topicsShown topics, and of each at most lanesShown lanes
// (list_window.go says why), and moves through the rest a page at a time.
type TopicList struct {
	app.Compo

	Topics  []TopicSnapshot
	Landing Landing                  // highlighted in the lanes
	Ghosts  map[string][]core.Record // removed records drawn leaving, by laneKey
	// Replicas are the lanes' replicas in a cluster, by laneKey, and Down
	// the brokers that are down (snapshot_replicas.go).
	Replicas map[string]ReplicaPartition
	Down     []int
	Selected selection // what the inspector shows, marked in the picture
	// ShareGroups are drawn as strips under the lanes they read, their
	// locks timed against Now (share_lane_strip.go).
	ShareGroups []core.ShareGroupView
	Now         int64
	// HideSkew leaves out each topic's skew and its hot partition's
	// flag: a lesson hides them until solved (lesson.GiveawaySkew).
	HideSkew bool

	topicStart int             // the first topic drawn
	known      map[string]bool // the topics at the last render, to follow a new one (followNew)
	laneStart  map[string]int  // the first lane drawn, by topic
	allLanes   string          // the topic whose every lane the learner asked to see

	// lanes draws the lanes a few at a turn of the browser's.
	lanesDrawn inTurns
}

// lanesPerTurn is how many lanes more than the last render drew a render
// draws in the browser (inTurns): a lane is some fifteen elements, and a
// link of ten topics of a thousand partitions drew its 240 lanes in one
// task of a second.
const lanesPerTurn = 24

func (t *TopicList) OnMount(ctx app.Context) { t.lanesDrawn.mount(ctx) }

func (t *TopicList) OnUpdate(ctx app.Context) { t.lanesDrawn.keepDrawing(ctx) }

// topicsShown is how many topics the list draws at once, and lanesShown how
// many lanes a topic draws until the learner asks for all, which a topic of
// at most allLanesMax partitions may: a topic may have 1,000 partitions, a
// scenario 10,000, and the page must stay quick. Only one topic draws all
// its lanes at a time.
const (
	topicsShown = 10
	lanesShown  = 24
	allLanesMax = 200
)

// topicWindow is the window of topics drawn.
func (t *TopicList) topicWindow() listWindow {
	return windowAt(t.topicStart, topicsShown, len(t.Topics))
}

// shownTopics lists the indexes of the topics drawn: the window, and the
// topics the last produce landed in, so a landing is always seen.
func (t *TopicList) shownTopics() []int {
	w := t.topicWindow()
	shown := make([]int, 0, topicsShown+1)
	for i := w.start; i < w.end(); i++ {
		shown = append(shown, i)
	}
	for i, topic := range t.Topics {
		if (i < w.start || i >= w.end()) && t.Landing.landedIn(topic.Name) {
			shown = append(shown, i)
		}
	}
	slices.Sort(shown)
	return shown
}

// laneWindow is the window of a topic's lanes drawn.
func (t *TopicList) laneWindow(topic TopicSnapshot) listWindow {
	n := len(topic.Partitions)
	if t.allLanes == topic.Name && n <= allLanesMax {
		return windowAt(0, n, n)
	}
	return windowAt(t.laneStart[topic.Name], lanesShown, n)
}

// lanes lists the partitions of a topic that are drawn: the window, and
// the first lanesShown others the last produce landed in (a produce of many
// keys lands in every partition; the landing note says where).
func (t *TopicList) lanes(topic TopicSnapshot) []int {
	n := len(topic.Partitions)
	w := t.laneWindow(topic)
	lanes := make([]int, 0, w.size+lanesShown)
	for i := w.start; i < w.end(); i++ {
		lanes = append(lanes, i)
	}
	for _, r := range t.Landing.Lanes {
		if len(lanes) == w.end()-w.start+lanesShown {
			break
		}
		if r.Topic == topic.Name && (r.Partition < w.start || r.Partition >= w.end()) && r.Partition < n && !slices.Contains(lanes, r.Partition) {
			lanes = append(lanes, r.Partition)
		}
	}
	slices.Sort(lanes)
	return lanes
}

// moreLanes shows every lane of a topic, or the first few again; past
// allLanesMax partitions it moves through them a page at a time.
func (t *TopicList) moreLanes(topic TopicSnapshot) app.UI {
	n := len(topic.Partitions)
	if n <= lanesShown {
		return nil
	}
	if n > allLanesMax {
		return windowNav("lanes-"+topic.Name, "partitions", 0, t.laneWindow(topic), func(ctx app.Context, start int) {
			if t.laneStart == nil {
				t.laneStart = map[string]int{}
			}
			t.laneStart[topic.Name] = start
			t.lanesDrawn.again()
		})
	}
	all := t.allLanes == topic.Name
	text := fmt.Sprintf("Show all %d partitions", n)
	if all {
		text = fmt.Sprintf("Show the first %d partitions", lanesShown)
	} else {
		text += fmt.Sprintf(" (%d not drawn)", n-lanesShown)
	}
	return app.Button().Type("button").Class("more-lanes").ID("more-lanes-"+topic.Name).
		OnClick(func(ctx app.Context, e app.Event) {
			t.allLanes = ""
			if !all {
				t.allLanes = topic.Name
			}
			t.lanesDrawn.again() // 200 lanes are drawn a few at a turn
		}, topic.Name, all). // the scope: the button may be another topic's after the topics move
		Text(text)
}

// hotRatio and hotMinRecords make the rule of a hot partition (isHot).
const (
	hotRatio      = 2
	hotMinRecords = 20
)

// hot says whether a partition of the topic, holding count records, is hot
// (isHot).
func (topic TopicSnapshot) hot(count int) bool {
	return isHot(count, topic.Total, len(topic.Partitions))
}

// isHot says whether a partition holding count of a topic's total records
// over partitions is hot: it holds at least hotRatio times the mean of its
// sibling partitions, and at least hotMinRecords records. A learner reads
// "hot" as "busier than the others in a way that matters": a topic of one
// partition has no siblings to be hotter than; a partition with a few
// records more than its siblings, or five records while they hold none
// (two keys that hash alike, in a lesson about commits), is chance of the
// keys, not load. Twice the others' share is a skew one sees on the skew
// bars at a glance, and the hot-partition lesson's one busy key makes
// some four times.
func isHot(count, total, partitions int) bool {
	if partitions < 2 || count < hotMinRecords {
		return false
	}
	siblings := float64(total-count) / float64(partitions-1)
	return float64(count) >= hotRatio*siblings
}

// Render draws one article per topic, or a hint when the log is empty.
func (t *TopicList) Render() app.UI {
	if len(t.Topics) == 0 {
		return app.Section().Class("topics", "empty").Body(
			app.P().Text("No topics yet. Create one with the form, or open a scenario link."),
		)
	}
	names := make([]string, len(t.Topics))
	for i, topic := range t.Topics {
		names[i] = topic.Name
	}
	t.topicStart, t.known = followNew(t.topicStart, topicsShown, names, t.known)
	shown := t.shownTopics()
	lanesOf := make([][]int, len(shown))
	draw := t.lanesDrawn.start(lanesPerTurn)
	for i, at := range shown {
		lanes := t.lanes(t.Topics[at])
		lanesOf[i] = lanes[:draw(len(lanes))]
	}
	return app.Section().Class("topics").Aria("label", "topics").Body(
		&LaneLegend{},
		windowNav("topics", "topics", 1, t.topicWindow(), func(ctx app.Context, start int) {
			t.topicStart = start
			t.lanesDrawn.again()
		}),
		app.Range(shown).Slice(func(i int) app.UI {
			topic := t.Topics[shown[i]]
			lanes := lanesOf[i]
			article := app.Article().Class("topic")
			if t.Selected.Kind == selectTopic && t.Selected.Topic == topic.Name {
				article = article.Class("selected")
			}
			return article.DataSet("topic", topic.Name).Aria("label", "topic "+topic.Name).Body(
				app.Div().Class("topic-head").Body(
					app.H2().Body(
						app.Button().Type("button").Class("topic-name", "quiet").DataSet("inspect-topic", topic.Name).
							Title("inspect "+topic.Name+": its configs, partitions and settings").
							OnClick(selectThing(selection{Kind: selectTopic, Topic: topic.Name}), topic.Name).Text(topic.Name),
					),
					&ProduceHere{Topic: topic.Name},
					app.If(!t.HideSkew,
						app.Span().Class("skew").DataSet("skew", fmt.Sprintf("%.2f", topic.Skew)).
							Title("the fullest partition over the mean; 1× is even").
							Body(&Help{Topic: "skew", Label: skewText(topic)}),
					).Else(
						app.Span().Class("skew", "skew-hidden").Title("this lesson shows it once solved").Text("skew hidden until solved"),
					),
					app.Span().Class("configs").Title("Configs not at Kafka's default; the topic's inspector lists them all").Text(configText(topic)),
				),
				app.Range(lanes).Slice(func(j int) app.UI {
					p := topic.Partitions[lanes[j]]
					landed, _ := t.Landing.rangeFor(p.Topic, p.Partition)
					replicas, replicated := t.Replicas[laneKey(p.Topic, p.Partition)]
					return &PartitionLane{
						Replicas:   replicas,
						Replicated: replicated,
						Down:       t.Down,
						Selected:   t.Selected.Kind == selectPartition && t.Selected.Topic == p.Topic && t.Selected.Partition == p.Partition,
						Partition:  p,
						Share:      skewShare(p.Count, topic.MaxCount),
						Hot:        !t.HideSkew && topic.hot(p.Count),
						Landed:     landed,
						Read:       t.Landing.Read[laneKey(p.Topic, p.Partition)],
						Moves:      t.Landing.laneMotions(p.Topic, p.Partition),
						Ghosts:     t.Ghosts[laneKey(p.Topic, p.Partition)],
						Shares:     shareStrips(t.ShareGroups, p.Topic, p.Partition, t.Now),
					}
				}),
				t.moreLanes(topic),
				topicTable(topic),
			)
		}),
	)
}

// tableShown is how many of a compacted topic's keys its table line draws.
const tableShown = 12

// topicTable draws, under a compacted topic's lanes, the table its
// changelog builds: each key's latest value, a key whose latest record is
// a tombstone struck out. Lesson 13 asks for acct-3 to leave "the table",
// which the page never showed.
func topicTable(topic TopicSnapshot) app.UI {
	if !topic.Compacts || topic.Table == nil {
		return nil
	}
	shown := topic.Table[:min(len(topic.Table), tableShown)]
	return app.P().Class("topic-table").DataSet("topic-table", topic.Name).
		Title("what a consumer reading "+topic.Name+" from its start builds: each key's latest value; a tombstone deletes its key").
		Body(
			app.Span().Class("topic-table-title").Text("table (each key's latest value): "),
			app.If(len(topic.Table) == 0, app.Text("empty")),
			app.Range(shown).Slice(func(i int) app.UI {
				e := shown[i]
				entry := app.Span().Class("topic-table-entry").DataSet("table-key", e.Key)
				if i > 0 {
					entry = entry.Body(app.Text(" · "), tableEntryText(e))
				} else {
					entry = entry.Body(tableEntryText(e))
				}
				return entry
			}),
			app.If(len(topic.Table) > len(shown), app.Text(fmt.Sprintf(" · and %d more keys", len(topic.Table)-len(shown)))),
		)
}

// tableEntryText is one key of the table: key = value, or the key struck
// out by its tombstone.
func tableEntryText(e TableEntry) app.UI {
	if e.Deleted {
		return app.Del().DataSet("table-deleted", true).Title(e.Key + " was deleted by a tombstone").Text(e.Key + " (deleted)")
	}
	value := e.Value
	if value == "" {
		value = `""` // an empty value is a value: the key stays
	}
	return app.Code().Text(e.Key + " = " + value)
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
	return fmt.Sprintf("skew %.2f×", t.Skew)
}

// configText lists, of the configs that shape the lanes, those not at
// Kafka's default: the header showed all five, Kafka's own defaults
// among them, cut off with an ellipsis in every topic. A config of the
// playground's own (segment.records) has no Kafka default and shows.
func configText(t TopicSnapshot) string {
	var parts []string
	for _, c := range t.Configs {
		switch c.Name {
		case "cleanup.policy", "retention.ms", "retention.bytes", "segment.records", "partitioner":
			if def, ok := core.LookupConfig(core.OnTopic, c.Name); ok && def.Kafka() != "" && c.Value == def.KafkaDefault {
				continue
			}
			parts = append(parts, c.Name+"="+c.Value)
		}
	}
	if len(parts) == 0 {
		return "Kafka's default configs"
	}
	return strings.Join(parts, " · ")
}
