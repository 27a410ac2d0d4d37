package e2e

import (
	"fmt"
	"strings"
	"testing"

	"plog/core/lesson"
)

// recentTitles lists the Scenarios panel's recent entries as "title: N steps".
func (b *browser) recentTitles(t *testing.T) []string {
	t.Helper()
	return eval[[]string](t, b, `Array.from(document.querySelectorAll(".recent li")).map(li =>
		li.querySelector(".recent-open").textContent + ":" + li.querySelector(".hint").textContent.split("·")[0].trim())`)
}

// waitRecent waits until the browser's storage lists n recent scenarios.
func (b *browser) waitRecent(t *testing.T, n int) {
	t.Helper()
	b.waitFor(t, fmt.Sprintf(`JSON.parse(localStorage.getItem("plog.recent") || "[]").length === %d`, n))
}

// A learner builds a scenario, then opens a link in the same tab, then picks
// a lesson from the list, acting in each: each is a workspace of its own in
// Scenarios → Recent, and the learner's own comes back intact.
func TestUIOpeningALinkOrALessonKeepsTheWorkspace(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL)
	b.startEmpty(t)
	b.createTopic(t, "mine", 2)
	b.fill(t, "#produce-key", "k")
	b.fill(t, "#produce-count", "3")
	b.click(t, "#produce-send")
	b.waitFor(t, `document.querySelectorAll("[data-topic=mine] [data-offset]").length === 3`)
	mine := lanesOnPage(t, b)
	b.waitRecent(t, 1)

	// A link pasted into the address bar of the same tab, then one step.
	other := "topic theirs partitions=1\nproduce theirs key=x value=1\n"
	eval[bool](t, b, fmt.Sprintf(`(location.hash = %s, true)`, js(linkOf(t, other))))
	b.waitCount(t, `[data-topic=theirs][data-partition]`, 1)
	b.click(t, "#advance-1s")
	b.waitRecent(t, 2)

	// A lesson picked from the page's list, then one step.
	first := lesson.All()[0]
	b.click(t, fmt.Sprintf(`[data-lesson-list] [data-lesson=%s] a`, js(first.Name)))
	b.waitCount(t, panel(first.Name), 1)
	b.click(t, "#advance-1s")
	b.waitRecent(t, 3)

	b.openScenarios(t)
	b.waitCount(t, ".recent li", 3)
	got := b.recentTitles(t)
	if len(got) != 3 || !strings.HasPrefix(got[0], "lesson "+first.Name+": ") || got[1] != "theirs:3 steps" || got[2] != "mine:2 steps" {
		t.Errorf("Recent lists %q, want the lesson, theirs (3 steps) and mine (2 steps)", got)
	}
	b.click(t, `.recent li:nth-child(3) .recent-open`)
	b.waitCount(t, `[data-topic=theirs]`, 0)
	b.waitCount(t, `[data-topic=mine][data-partition]`, 2)
	if got := lanesOnPage(t, b); fmt.Sprint(got) != fmt.Sprint(mine) {
		t.Errorf("the reopened workspace shows\n%v\nwant as built\n%v", got, mine)
	}
	b.noErrors(t)
}

// Recent is bounded: when a new workspace takes the oldest's place, the
// page says which scenario is no longer listed.
func TestUIRecentSaysWhenItDropsTheOldest(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	// A browser that already lists twelve scenarios, the oldest "t11".
	var recent []string
	for i := range 12 {
		recent = append(recent, fmt.Sprintf(`{"id":"w%d","fragment":%s,"title":"t%d","steps":1,"saved":%d}`,
			i, js(strings.TrimPrefix(linkOf(t, fmt.Sprintf("topic t%d\n", i)), "#")), i, 1700000000000-i))
	}
	b.beforeEachPage(t, fmt.Sprintf(`if (!sessionStorage.getItem("seeded")) { sessionStorage.setItem("seeded", "1"); localStorage.setItem("plog.recent", %s) }`,
		js("["+strings.Join(recent, ",")+"]")))
	b.open(t, s.URL)
	b.startEmpty(t)
	b.createTopic(t, "mine", 1)
	b.waitText(t, ".notice", "the oldest, “t11” (1 step")
	b.waitText(t, ".notice", "is no longer listed")
	b.openScenarios(t)
	b.waitCount(t, ".recent li", 12)
	if got := b.recentTitles(t); got[0] != "mine:1 step" || got[11] != "t10:1 step" {
		t.Errorf("Recent lists %q, want mine first and t10 last", got)
	}
	b.noErrors(t)
}
