package app

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ProducerStrip shows the named producers in the picture, above the lanes:
// each one's producer id and epoch (the brokers' InitProducerId gave them),
// its state, and its next sequence number on each partition it wrote to,
// which is what a partition's leader checks a batch against to drop a
// retried one (idempotence). The Produce tab's Producers panel makes them
// and acts on them (producer_panel.go).
type ProducerStrip struct {
	app.Compo

	Producers []core.ProducerView
	// Workloads are the producer workloads running: drawn too, so that
	// the records flowing into the lanes come from someone the learner
	// sees (the starter's shop).
	Workloads []scenario.Workload
}

// Render draws [data-producer-strip] with one
// [data-picture-producer=NAME] per producer (data-producer-id, -epoch and
// -state), its sequences as [data-sequence="orders/0"] with
// data-next-sequence.
func (s *ProducerStrip) Render() app.UI {
	if len(s.Producers) == 0 && len(s.Workloads) == 0 {
		return app.Section().Class("producer-strip").DataSet("producer-strip", "").Hidden(true)
	}
	return app.Section().Class("producer-strip").DataSet("producer-strip", "").Aria("label", "producers").Body(
		app.Span().Class("strip-title").Title("A producer with idempotence has a producer id and epoch from the brokers and numbers its batches per partition: "+
			"a partition's leader drops a batch whose producer id and sequence it holds already, so a retry writes nothing twice.").Body(
			app.Strong().Text("Producers"), &Help{Topic: "idempotence"},
		),
		app.Ul().Class("strip-producers").Body(
			app.Range(s.Producers).Slice(func(i int) app.UI { return stripProducer(s.Producers[i]) }),
			app.Range(s.Workloads).Slice(func(i int) app.UI { return stripWorkload(s.Workloads[i]) }),
		),
	)
}

// stripProducer is one producer in the strip.
func stripProducer(v core.ProducerView) app.UI {
	id := "no producer id"
	if v.ID >= 0 {
		id = fmt.Sprintf("id %d · epoch %d", v.ID, v.Epoch)
	}
	state := producerState(v)
	title := v.Name + ": " + producerStripTitle(v)
	return app.Li().Class("strip-producer", "producer-"+state).
		DataSet("picture-producer", v.Name).
		DataSet("producer-id", v.ID).
		DataSet("producer-epoch", v.Epoch).
		DataSet("producer-state", state).
		Title(title).
		Body(
			app.Strong().Text(v.Name),
			app.Span().Class("strip-producer-id").Text(" "+id+" · "+state),
			app.If(v.Config.TransactionalID != "", app.Span().Text(" · transactional.id "+v.Config.TransactionalID)),
			app.If(len(v.Partitions) > 0, app.Span().Class("strip-producer-txn").Text(" · open on "+partitionsText(v.Partitions))),
			app.Range(v.Sequences).Slice(func(i int) app.UI {
				q := v.Sequences[i]
				tp := fmt.Sprintf("%s/%d", q.Topic, q.Partition)
				return app.Span().Class("strip-sequence").DataSet("sequence", tp).DataSet("next-sequence", q.Next).
					Title(fmt.Sprintf("the next batch %s sends to %s takes sequence %d", v.Name, tp, q.Next)).
					Text(tp + " seq " + strconv.Itoa(int(q.Next)))
			}),
		)
}

// stripWorkload is a running producer workload in the strip: its name,
// the topic it writes to and how it picks keys, its command in its title.
func stripWorkload(w scenario.Workload) app.UI {
	keys := map[string]string{"none": "no keys", "sequence": "keys in sequence", "uniform": "random keys", "zipf": "a few hot keys"}[w.Keys]
	if keys == "" {
		keys = "keys " + w.Keys
	}
	keys += ownKeys(w)
	return app.Li().Class("strip-producer", "strip-workload").
		DataSet("workload-producer", w.Name).
		DataSet("writes-to", w.Topic). // where flights.js starts its records
		Title("a workload, writing as the clock runs: "+w.Line).
		Body(
			app.Strong().Text(w.Name),
			app.Span().Text(" → "+w.Topic+" · "+keys+" · writes as the clock runs"),
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

// producerStripTitle says what the producer's state means for its writes.
func producerStripTitle(v core.ProducerView) string {
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
