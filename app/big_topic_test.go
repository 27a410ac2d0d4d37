package app

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A topic of a few partitions lists them; one of a thousand takes a number,
// and says which numbers and what empty means, rather than a list of a
// thousand options that took the page a second to draw.
func TestPartitionPickerListsFewAndTakesANumberForMany(t *testing.T) {
	for _, tc := range []struct {
		partitions int
		tag        string // the picker's element
		want       []string
	}{
		{3, "<select", []string{`>partitioner chooses</option>`, `>t/2</option>`}},
		{partitionsListed, "<select", []string{`>t/63</option>`}},
		{1000, "<input", []string{`placeholder="0 to 999"`, `title="a partition of t, from 0 to 999; empty: the partitioner chooses"`, `inputmode="numeric"`}},
	} {
		f := &ProduceForm{Topics: []TopicSnapshot{{Name: "t", Partitions: make([]PartitionSnapshot, tc.partitions)}}}
		d := app.NewClientTester(f)
		html := app.HTMLString(f)
		d.Close()
		picker := tagsWith(html, "id", "produce-partition")
		if len(picker) != 1 || !strings.HasPrefix(picker[0], tc.tag) {
			t.Errorf("%d partitions: the picker is %q, want a %s>", tc.partitions, picker, tc.tag)
			continue
		}
		for _, want := range tc.want {
			if !strings.Contains(html, want) {
				t.Errorf("%d partitions: the form has no %s", tc.partitions, want)
			}
		}
		if n := strings.Count(html, "<option"); tc.tag == "<input" && n > 10 {
			t.Errorf("%d partitions: the form still lists %d options", tc.partitions, n)
		}
	}
}

// The chart of a topic of a thousand partitions draws at most
// chartBarsShown bars, each as tall as the fullest partition of its run,
// so that a hot partition still stands out, and its caption says so.
func TestRecordsChartOfManyPartitionsDrawsRuns(t *testing.T) {
	counts := make([]int, 1000)
	counts[500] = 70 // a hot partition, in the run of 495..503
	counts[3] = 5
	html := app.HTMLString(recordsFigure(TopicRecordCounts{Topic: "t", Counts: counts}, false))
	if n := len(tagsWith(html, "data-series", "records")); n > chartBarsShown || n < chartBarsShown-10 {
		t.Errorf("%d bars, want at most %d", n, chartBarsShown)
	}
	if !strings.Contains(html, "each bar is the fullest of 9 partitions") {
		t.Errorf("the caption does not say what a bar is:\n%s", html[:min(len(html), 600)])
	}
	// The run holding partition 500 starts at 495 and is the chart's
	// tallest bar: its height is the plot's.
	hot := tagsWith(html, "data-partition", "495")
	if len(hot) != 1 || !strings.Contains(hot[0], `data-partitions="9"`) {
		t.Fatalf("the run of partition 500: %q", hot)
	}
	height := func(tag string) float64 {
		m := regexp.MustCompile(` height="([0-9.]+)"`).FindStringSubmatch(tag)
		if m == nil {
			t.Fatalf("a bar without a height: %s", tag)
		}
		h, _ := strconv.ParseFloat(m[1], 64)
		return h
	}
	for _, bar := range tagsWith(html, "data-series", "records") {
		if bar != hot[0] && height(bar) >= height(hot[0]) {
			t.Errorf("bar %s is as tall as the hot partition's run %s", bar, hot[0])
		}
	}
	few := app.HTMLString(recordsFigure(TopicRecordCounts{Topic: "t", Counts: counts[:8]}, false))
	if n := len(tagsWith(few, "data-series", "records")); n != 8 || strings.Contains(few, "each bar") {
		t.Errorf("a topic of 8 partitions: %d bars, want one each", n)
	}
}

// A partition picked for one topic is not kept for another, where it may
// be no partition at all (2 typed after a small topic's 2 made 2999).
func TestProducePartitionStartsOverWithAnotherTopic(t *testing.T) {
	f := &ProduceForm{Topics: []TopicSnapshot{
		{Name: "small", Partitions: make([]PartitionSnapshot, 3)},
		{Name: "big", Partitions: make([]PartitionSnapshot, 1000)},
	}}
	d := app.NewClientTester(f)
	defer d.Close()
	f.topic, f.partition = "small", "2"
	f.Render()
	if line, _ := f.Line(); !strings.Contains(line, "partition=2") {
		t.Fatalf("the line for small/2 is %q", line)
	}
	f.topic = "big"
	f.Render()
	if f.partition != "" {
		t.Errorf("after choosing big, the partition is %q, want the partitioner's choice", f.partition)
	}
	if line, _ := f.Line(); strings.Contains(line, "partition=") {
		t.Errorf("the line for big is %q, with a partition", line)
	}
}

// A window of partitions numbers them as their lanes do, from 0; a window
// of other things counts from 1.
func TestWindowsNumberPartitionsFromZero(t *testing.T) {
	p, _ := mountAt(t, mustLink(t, "topic t partitions=1000\n"+numberedLines(12, "topic u%d")))
	page := app.HTMLString(p)
	for _, want := range []string{"Showing partitions 0–23 of 1000: 976 more partitions are not drawn.", "Showing topics 1–10 of 13"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
	if from := tagsWith(page, "id", "lanes-t-from"); len(from) != 1 || !strings.Contains(from[0], `value="0"`) {
		t.Errorf("the box of the lanes' window: %q, want it at 0", from)
	}
}
