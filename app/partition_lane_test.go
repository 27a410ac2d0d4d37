package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Records produced to a replicated topic are drawn at once, above the high
// watermark and marked not committed, and the produce note says why no
// consumer reads them yet; once the followers have fetched them they are
// committed like any other.
func TestLaneDrawsRecordsAboveTheHighWatermark(t *testing.T) {
	p, d := mountAt(t, mustLink(t, "topic orders replication.factor=3\n"))
	Apply(d.Context(), "produce orders value=v count=3")
	d.Consume()
	page := app.HTMLString(p)
	lane := tagsWith(page, "class", "lane", "data-topic", "orders")
	if len(lane) != 1 || !strings.Contains(lane[0], `data-high-watermark="0"`) {
		t.Fatalf("want the lane at high watermark 0, got %v", lane)
	}
	if got := len(tagsWith(page, "data-uncommitted", "true")); got != 3 {
		t.Errorf("%d records drawn as not committed, want 3", got)
	}
	if len(tagsWith(page, "data-hw-mark", "0")) != 1 {
		t.Error("no high watermark mark before the first record above it")
	}
	if strings.Contains(page, "newer ▶") {
		t.Error("the lane offers newer records it could draw")
	}
	if !strings.Contains(page, "They are not committed yet: the high watermark is 0, and consumers read only below it. It moves up once the followers in the ISR have fetched the records") {
		t.Errorf("the produce note does not say why consumers cannot read the records:\n%s", page)
	}
	if !strings.Contains(page, "log end 3 (3 records not committed yet)") {
		t.Error("the lane's head does not give the log end")
	}

	Apply(d.Context(), "advance 1s")
	d.Consume()
	page = app.HTMLString(p)
	lane = tagsWith(page, "class", "lane", "data-topic", "orders")
	if len(lane) != 1 || !strings.Contains(lane[0], `data-high-watermark="3"`) || len(tagsWith(page, "data-uncommitted", "true")) != 0 || strings.Contains(page, "data-hw-mark") {
		t.Errorf("after the followers fetched, the records are still drawn as not committed:\n%s", page)
	}
}
