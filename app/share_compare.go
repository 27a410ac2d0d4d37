package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ShareCompare lets the learner run one workload through a consumer group
// and through the share group, side by side, with the share group's
// members, and shows what each did (core.CompareShareConsumer): who got
// which record and in which order, when all was done, and what a crash of
// one member cost. The groups do not change: each runs on a copy of the
// engine.
//
// Tests read [data-share-compare=GROUP], and per group
// [data-share-compare-run=consumer|share] with data-done-ms,
// data-redelivered, data-stalled-ms and data-crash-cost-ms; its members'
// rows [data-compare-member=NAME] with data-records, each delivery
// [data-compare-delivery=T/P@OFFSET] with data-delivery (1 the first), and
// each partition's [data-compare-partition=T/P] with data-order, the
// members its records went to, in order.
type ShareCompare struct {
	app.Compo

	Group   string
	Members []string // the running members
	Choice  shareCompareChoice
	Result  *ShareCompared

	records, pollMax, crash string // as picked
	pickedFor               string // the group they were picked for
}

// The workload sizes a learner may pick.
var (
	compareRecords = []int{6, 12, 24, 48}
	comparePollMax = []int{1, 2, 5, 10}
)

// defaultShareCompare is the workload the share group card's button asks
// for: the engine's defaults, and the first member crashing after its
// first poll when there is another to take over.
func defaultShareCompare(group string, running []string) shareCompareChoice {
	c := shareCompareChoice{Group: group, Records: core.DefaultShareWorkloadRecords, PollMax: core.DefaultShareWorkloadPollMax}
	if len(running) > 1 {
		c.Crash = running[0]
	}
	return c
}

func (c *ShareCompare) control() string { return "share/" + c.Group + "/compare" }

// choice is the workload the form shows: what the learner picked, else
// the one run last.
func (c *ShareCompare) choice() shareCompareChoice {
	ch := c.Choice
	if ch.Group != c.Group {
		ch = defaultShareCompare(c.Group, c.Members)
	}
	if n, err := strconv.Atoi(c.records); err == nil {
		ch.Records = n
	}
	if n, err := strconv.Atoi(c.pollMax); err == nil {
		ch.PollMax = n
	}
	if c.crash != "" {
		ch.Crash = strings.TrimPrefix(c.crash, "-")
	}
	return ch
}

func (c *ShareCompare) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	ctx.NewActionWithValue(selectAction, selection{Kind: selectShareGroup, Group: c.Group, ShareCompare: c.choice()})
}

// Render draws the form and, once run, the two groups side by side.
func (c *ShareCompare) Render() app.UI {
	if c.pickedFor != c.Group {
		c.records, c.pollMax, c.crash, c.pickedFor = "", "", "", c.Group
	}
	ch := c.choice()
	crashes := append([]string{""}, c.Members...)
	return app.Section().Class("share-compare").DataSet("share-compare", c.Group).
		Aria("labelledby", "share-compare-title").Body(
		app.H3().ID("share-compare-title").Text("The same workload through a consumer group and this share group"),
		app.Form().Class("share-compare-form").DataSet("control", c.control()).
			Aria("label", "Run a workload through a consumer group and share group "+c.Group).
			OnSubmit(c.submit).Body(
			app.Label().Body(
				app.Span().Text("records"),
				app.Select().Name("records").OnChange(textInto(&c.records)).Body(
					app.Range(compareRecords).Slice(func(i int) app.UI {
						n := compareRecords[i]
						return app.Option().Value(strconv.Itoa(n)).Selected(n == ch.Records).Text(strconv.Itoa(n))
					}),
				),
			),
			app.Label().Body(
				app.Span().Text("each poll takes"),
				app.Select().Name("poll-max").OnChange(textInto(&c.pollMax)).Body(
					app.Range(comparePollMax).Slice(func(i int) app.UI {
						n := comparePollMax[i]
						return app.Option().Value(strconv.Itoa(n)).Selected(n == ch.PollMax).Text(countOf(n, "record"))
					}),
				),
			),
			app.Label().Body(
				app.Span().Text("after its first poll, crash"),
				app.Select().Name("crash").OnChange(textInto(&c.crash)).Body(
					app.Range(crashes).Slice(func(i int) app.UI {
						value, text := crashes[i], crashes[i]
						if value == "" {
							value, text = "-", "no one"
						}
						return app.Option().Value(value).Selected(crashes[i] == ch.Crash).Text(text)
					}),
				),
			),
			app.Button().Type("submit").DataSet("action", "run-share-compare").Text("Run side by side"),
		),
		app.P().Class("form-note").Text("Neither group changes: each runs on a copy of the engine, with the share group's running members "+
			"and subscriptions, both starting at the log end: the consumer group with Kafka's defaults (the range assignor, auto-commit every 5 s), "+
			"the share group with its own configs, its members acknowledging implicitly. The records are produced keyless to the partitions in turn; "+
			"every member polls every second, and is done with a poll's records when it polls again."),
		c.renderResult(),
	)
}

// renderResult draws the two runs, or why there are none.
func (c *ShareCompare) renderResult() app.UI {
	r := c.Result
	switch {
	case r == nil:
		return nil
	case r.Err != "":
		return app.P().Class("error").Attr("role", "alert").DataSet("control", c.control()).Text(r.Err)
	}
	cmp := r.Comparison
	return app.Div().Class("share-compare-runs").Body(
		renderWorkloadRun(cmp, cmp.Consumer),
		renderWorkloadRun(cmp, cmp.Share),
	)
}

// renderWorkloadRun draws what one group did with the workload.
func renderWorkloadRun(cmp core.ShareComparison, run core.WorkloadRun) app.UI {
	title := "Consumer group"
	if run.Kind == core.CompareShareGroup {
		title = "Share group"
	}
	col := app.Section().Class("share-compare-run").DataSet("share-compare-run", run.Kind).Aria("label", title)
	if run.Unavailable != "" {
		return col.Body(app.H4().Text(title), app.P().Class("hint").Text(run.Unavailable))
	}
	col = col.DataSet("redelivered", run.Redelivered)
	if run.Done {
		col = col.DataSet("done-ms", run.DoneMs)
	}
	if run.StallKnown {
		col = col.DataSet("stalled-ms", run.StalledMs)
	}
	if run.CostKnown {
		col = col.DataSet("crash-cost-ms", run.CrashCostMs)
	}
	byMember := map[string][]core.WorkloadDelivery{}
	byPartition := map[core.TopicPartition][]core.WorkloadDelivery{}
	var partitions []core.TopicPartition
	for _, d := range run.Deliveries {
		byMember[d.Member] = append(byMember[d.Member], d)
		if byPartition[d.TopicPartition] == nil {
			partitions = append(partitions, d.TopicPartition)
		}
		byPartition[d.TopicPartition] = append(byPartition[d.TopicPartition], d)
	}
	slices.SortFunc(partitions, func(a, b core.TopicPartition) int {
		if a.Topic != b.Topic {
			return strings.Compare(a.Topic, b.Topic)
		}
		return a.Partition - b.Partition
	})
	return col.Body(
		app.H4().Text(title),
		app.P().Class("share-compare-summary").Text(workloadSummary(cmp, run)),
		app.Table().Class("inspector-configs", "share-compare-members").Body(
			app.Caption().Text("Who got what, in the order they got it (↻ a second delivery, ✗ got but never done with: the member crashed)"),
			app.TBody().Body(app.Range(cmp.Members).Slice(func(i int) app.UI {
				m := cmp.Members[i]
				got := byMember[m]
				return app.Tr().DataSet("compare-member", m).DataSet("records", len(got)).Body(
					app.Th().Scope("row").Text(m),
					app.Td().Body(
						app.If(len(got) == 0, app.Span().Class("hint").Text("nothing")),
						app.Range(got).Slice(func(j int) app.UI { return renderCompareDelivery(got[j]) }),
					),
				)
			})),
		),
		app.Table().Class("inspector-configs", "share-compare-partitions").Body(
			app.Caption().Text("Each partition's records in the order they were delivered, and to whom"),
			app.TBody().Body(app.Range(partitions).Slice(func(i int) app.UI {
				tp := partitions[i]
				got := byPartition[tp]
				order := make([]string, len(got))
				for j, d := range got {
					order[j] = d.Member
				}
				return app.Tr().DataSet("compare-partition", tp.String()).DataSet("order", strings.Join(order, " ")).Body(
					app.Th().Scope("row").Text(tp.String()),
					app.Td().Body(app.Range(got).Slice(func(j int) app.UI {
						d := got[j]
						return app.Span().Class("compare-order").Title(fmt.Sprintf("offset %d to %s at %s", d.Offset, d.Member, units.Duration(d.AtMs))).
							Text(fmt.Sprintf("%d→%s", d.Offset, d.Member))
					})),
				)
			})),
		),
	)
}

// renderCompareDelivery is one record a member got.
func renderCompareDelivery(d core.WorkloadDelivery) app.UI {
	name := fmt.Sprintf("%s/%d@%d", d.Topic, d.Partition, d.Offset)
	text := fmt.Sprintf("%d/%d", d.Partition, d.Offset)
	title := fmt.Sprintf("%s at %s", name, units.Duration(d.AtMs))
	if d.Delivery > 1 {
		text = "↻" + text
		title += fmt.Sprintf(", its delivery %d", d.Delivery)
	}
	if !d.Done {
		text += "✗"
		title += ", never done with: the member crashed"
	}
	chip := app.Span().Class("compare-delivery").DataSet("compare-delivery", name).DataSet("delivery", d.Delivery).Title(title)
	if d.Delivery > 1 {
		chip = chip.Class("again")
	}
	return chip.Text(text)
}

// workloadSummary says in words when the run was done and what the crash
// cost.
func workloadSummary(cmp core.ShareComparison, run core.WorkloadRun) string {
	var b strings.Builder
	if run.Done {
		fmt.Fprintf(&b, "All %d records done with %s after they were produced", run.Records, units.Duration(run.DoneMs))
	} else {
		fmt.Fprintf(&b, "Not every one of the %d records was done with within the comparison's bounds", run.Records)
	}
	if run.Redelivered > 0 {
		fmt.Fprintf(&b, "; %s delivered twice", countOf(run.Redelivered, "record"))
	}
	b.WriteString(".")
	if cmp.Workload.Crash == "" {
		return b.String()
	}
	fmt.Fprintf(&b, " %s crashed at %s", cmp.Workload.Crash, units.Duration(run.CrashAtMs))
	if run.StallKnown {
		if run.Kind == core.CompareShareGroup {
			fmt.Fprintf(&b, "; the records it held came back to another member %s later, once their locks expired (share.record.lock.duration.ms)", units.Duration(run.StalledMs))
		} else {
			fmt.Fprintf(&b, "; its partitions stood still %s, until its session timed out (session.timeout.ms) and the group rebalanced, and their new owner read again from the committed offset", units.Duration(run.StalledMs))
		}
	}
	if run.CostKnown {
		fmt.Fprintf(&b, ". Without the crash all was done after %s: the crash cost %s", units.Duration(run.CrashFreeDoneMs), units.Duration(run.CrashCostMs))
	}
	b.WriteString(".")
	return b.String()
}
