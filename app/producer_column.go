package app

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ProducerColumn draws the producers as actors on the picture's left, the
// lanes on their right and the groups' members beyond, so that a record
// travels from whoever wrote it to its partition (flights.js): a card per
// named producer, with what the brokers gave it (producer id and epoch),
// its state, its next sequence number on each partition it wrote to
// (what a partition's leader checks a batch against to drop a retried
// one: idempotence) and the buttons that act on it; and a line per
// producer workload, writing as the clock runs (the starter's shop). The
// Produce tab makes named producers (producer_panel.go); the column is
// not drawn while there are none.
type ProducerColumn struct {
	app.Compo

	Links     int // links the page opened since it was ready, for the cards (fresh_form.go)
	Producers []core.ProducerView
	Groups    []string        // the consumer groups, whose offsets a transaction can send
	Topics    []TopicSnapshot // where a card's produce sends
	Workloads []scenario.Workload
}

// Render draws [data-producer-column] with one [data-producer=NAME] card
// per named producer (ProducerCard) and one [data-workload-producer=NAME]
// per producer workload.
func (s *ProducerColumn) Render() app.UI {
	if len(s.Producers) == 0 && len(s.Workloads) == 0 {
		return app.Section().Class("producer-column").DataSet("producer-column", "").Hidden(true)
	}
	return app.Section().Class("producer-column").DataSet("producer-column", "").Aria("label", "producers").Body(
		app.H2().Class("column-title").Title("A producer with idempotence has a producer id and epoch from the brokers and numbers its batches per partition: "+
			"a partition's leader drops a batch whose producer id and sequence it holds already, so a retry writes nothing twice.").Body(
			app.Text("Producers "), &Help{Topic: "idempotence"},
		),
		app.Ul().Class("producer-cards").Body(
			app.Range(s.Producers).Slice(func(i int) app.UI {
				return &ProducerCard{Links: s.Links, Producer: s.Producers[i], Groups: s.Groups, Topics: s.Topics}
			}),
			app.Range(s.Workloads).Slice(func(i int) app.UI { return workloadActor(s.Workloads[i]) }),
		),
	)
}

// producerSequences are the producer's next sequence number on each
// partition it wrote to, as [data-sequence="orders/0"] with
// data-next-sequence.
func producerSequences(v core.ProducerView) app.UI {
	return app.P().Class("producer-sequences").Hidden(len(v.Sequences) == 0).Body(
		app.Range(v.Sequences).Slice(func(i int) app.UI {
			q := v.Sequences[i]
			tp := fmt.Sprintf("%s/%d", q.Topic, q.Partition)
			return app.Span().Class("producer-sequence").DataSet("sequence", tp).DataSet("next-sequence", q.Next).
				Title(fmt.Sprintf("the next batch %s sends to %s takes sequence %d", v.Name, tp, q.Next)).
				Text(tp + " seq " + strconv.Itoa(int(q.Next)))
		}),
	)
}

// workloadActor is a running producer workload in the column: its name,
// the topic it writes to and how it picks keys, its command in its title.
func workloadActor(w scenario.Workload) app.UI {
	keys := map[string]string{"none": "no keys", "sequence": "keys in sequence", "uniform": "random keys", "zipf": "a few hot keys"}[w.Keys]
	if keys == "" {
		keys = "keys " + w.Keys
	}
	keys += ownKeys(w)
	stop := w.StopLine()
	return app.Li().Class("producer-card", "workload-actor").
		DataSet("workload-producer", w.Name).
		DataSet("writes-to", w.Topic). // where flights.js starts its records
		Title("a workload, writing as the clock runs: "+w.Line).
		Body(
			app.P().Class("producer-name").Body(app.Strong().Text(w.Name), app.Span().Class("producer-badge").Text("workload")),
			app.P().Class("producer-line").Text("→ "+w.Topic+" · "+keys+" · writes as the clock runs"),
			// As in the Time tab's list (workload_controls.go), the line
			// is the handler's scope.
			app.Button().Type("button").Class(roleSecondary.classes()...).DataSet("command", scenario.CmdStop).DataSet("action", "stop").
				Aria("label", "Stop "+w.Name).Title(stop).Text("Stop").
				OnClick(func(ctx app.Context, e app.Event) { ApplyFrom(ctx, stopControl, stop) }, stop),
		)
}

// ownKeys says which keys a workload names, when it names them: the first
// of its list, or its pattern; "" for keys key-N.
func ownKeys(w scenario.Workload) string {
	const shown = 3
	switch {
	case len(w.KeyList) > shown:
		return " from " + strings.Join(w.KeyList[:shown], ", ") + fmt.Sprintf(" and %d more", len(w.KeyList)-shown)
	case len(w.KeyList) > 0:
		return " from " + strings.Join(w.KeyList, ", ")
	case w.KeyPattern != "":
		return " like " + w.KeyPattern
	}
	return ""
}

// producerStateTitle says what the producer's state means for its writes.
func producerStateTitle(v core.ProducerView) string {
	switch producerState(v) {
	case "plain":
		return "enable.idempotence is off: it has no producer id, so a retry after a lost answer writes the record again"
	case "idempotent":
		return "idempotent: each partition's leader keeps its producer id's last 5 batches, and drops a retried batch with a sequence it holds"
	case "uninitialized":
		return "transactional, not initialized: initTransactions gives it its producer id and epoch"
	case "ready":
		return "transactional, between transactions: begin one to send"
	case "in-transaction":
		return "in a transaction: its records are open until it commits or aborts"
	case "fenced":
		return "fenced: a newer producer with its transactional.id (or a timeout) moved the epoch on, and its writes are refused"
	}
	return producerState(v)
}

// producerWorkloads are the producer workloads among ws.
func producerWorkloads(ws []scenario.Workload) []scenario.Workload {
	var out []scenario.Workload
	for _, w := range ws {
		if w.Producer {
			out = append(out, w)
		}
	}
	return out
}
