package app

import (
	"fmt"

	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// WireLine is one thing the last command did between a named producer and
// the brokers, in words: a request or an answer lost, a retry the broker
// dropped as a duplicate (and why), a retry written again, a transaction's
// steps and markers.
type WireLine struct {
	Kind      core.EventKind
	Producer  string
	Partition string // topic/partition, "" for a transaction's end or start
	Text      string
}

// maxWireLines bounds the note: a send of many records lost many times is
// summed up after this many lines.
const maxWireLines = 8

// wireLinesOf puts the named producers' events of one command into words.
// The engine says what happened (core/producer_send.go, core/txn.go); the
// words say why, where the learner looks after a produce.
func wireLinesOf(events []core.Event) []WireLine {
	var lines []WireLine
	for _, e := range events {
		tp := fmt.Sprintf("%s/%d", e.Topic, e.Partition)
		seq := ""
		if e.Count >= 0 {
			seq = fmt.Sprintf(" (sequence %d)", e.Count)
		}
		text := ""
		switch e.Kind {
		case core.EventRequestLost:
			text = fmt.Sprintf("%s's request to %s%s was lost before the broker (%s): nothing was written, and the producer sends it again.", e.Member, tp, seq, e.Detail)
		case core.EventResponseLost:
			text = fmt.Sprintf("%s's record reached %s at offset %d%s, but the answer was lost: the producer cannot tell, and sends it again.", e.Member, tp, e.Offset, seq)
			if e.Count < 0 {
				text += " With enable.idempotence off the batch has no producer id or sequence, so the broker cannot know it is the same record: the retry is written again, at a new offset."
			}
		case core.EventDuplicateDropped:
			text = fmt.Sprintf("The broker dropped %s's retry to %s as a duplicate: %s. Idempotence: a partition's leader keeps each producer id's last 5 batches, and answers a retry of one with the first copy's offset instead of writing it again.",
				e.Member, tp, e.Detail)
		case core.EventOutOfOrder:
			text = fmt.Sprintf("%s's batch to %s was refused: %s; the producer sends its batches again in order.", e.Member, tp, e.Detail)
		case core.EventSendFailed:
			text = fmt.Sprintf("%s gave up on a record for %s%s: %s.", e.Member, tp, seq, e.Detail)
		case core.EventTxnMarker:
			marker := "a " + e.Detail // COMMIT
			if e.Cause == core.CauseAbort {
				marker = "an " + e.Detail
			}
			text = fmt.Sprintf("%s's transaction wrote %s marker to %s at offset %d: a control record that takes an offset and that no consumer is given.", e.Member, marker, tp, e.Offset)
		case core.EventTxnEnded:
			tp, text = "", fmt.Sprintf("%s's transaction ended: %s; producer id %d's epoch is now %d (Kafka 4 bumps it at every transaction's end, KIP-890).", e.Member, e.Detail, e.Count, e.Generation)
		case core.EventTxnEmpty:
			tp, text = "", fmt.Sprintf("%s %s a transaction with nothing in it: no record was sent and no offsets, so the producer sent no EndTxn (Kafka 4.4): no marker, and producer id %d keeps epoch %d.", e.Member, e.Detail, e.Count, e.Generation)
		case core.EventTxnInit:
			tp, text = "", fmt.Sprintf("initTransactions gave %s producer id %d, epoch %d (%s): a producer with the same transactional.id and an older epoch is fenced.", e.Member, e.Count, e.Generation, e.Detail)
		default:
			continue
		}
		lines = append(lines, WireLine{Kind: e.Kind, Producer: e.Member, Partition: tp, Text: text})
	}
	return lines
}

// WireNote says what the last command did on the wire, under the lanes,
// beside where its records landed.
type WireNote struct {
	app.Compo

	Lines []WireLine
}

// Render draws li[data-wire-event=KIND][data-wire-producer] per line.
func (n *WireNote) Render() app.UI {
	if len(n.Lines) == 0 {
		return app.Div().Class("wire-note", "empty")
	}
	shown := n.Lines[:min(len(n.Lines), maxWireLines)]
	return app.Section().Class("wire-note").Aria("live", "polite").Aria("label", "what the producers did").Body(
		app.Ul().Body(
			app.Range(shown).Slice(func(i int) app.UI {
				l := shown[i]
				li := app.Li().DataSet("wire-event", string(l.Kind)).DataSet("wire-producer", l.Producer)
				if l.Partition != "" {
					li = li.DataSet("wire-partition", l.Partition)
				}
				return li.Text(l.Text)
			}),
			app.If(len(n.Lines) > len(shown), app.Li().Text(fmt.Sprintf("and %d more", len(n.Lines)-len(shown)))),
		),
	)
}
