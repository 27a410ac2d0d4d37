package e2e

import (
	"fmt"
	"testing"
)

// What a learner types into one group's or one member's fields stays with
// that group or member: a group sorted before it appearing, or a member
// before it leaving, never hands the typed text to another one, where a
// click would send it for the wrong group.
func TestTypedGroupFieldsStayWithTheirGroup(t *testing.T) {
	b := openPlayground(t, `topic orders partitions=2
join b c1 topics=orders
join b c2 topics=orders
join c d1 topics=orders
advance 3s
`)
	b.waitCount(t, member("b", "c1")+" [name=max]", 1)
	value := func(selector string) string {
		return eval[string](t, b, fmt.Sprintf(`document.querySelector(%s).value`, js(selector)))
	}
	untouched := value(group("c") + ` .group-config [name="lag.alert.records"]`)
	b.fill(t, member("b", "c1")+" [name=max]", "1")
	b.fill(t, group("c")+` .group-config [name="lag.alert.records"]`, "7")
	b.fill(t, group("c")+" .group-reset [name=scope]", "orders/1")

	// Group a sorts before b and c: every card moves down one place.
	b.joinMember(t, "a", "x1", "orders", "", "")
	b.waitCount(t, member("a", "x1"), 1)
	for _, f := range []struct{ selector, want string }{
		{member("a", "x1") + " [name=max]", "5"},
		{group("b") + ` .group-config [name="lag.alert.records"]`, untouched},
		{group("b") + " .group-reset [name=scope]", ""},
	} {
		if got := value(f.selector); got != f.want {
			t.Errorf("%s shows %q after group a appeared, want %q", f.selector, got, f.want)
		}
	}
	b.click(t, group("b")+" .group-config button[type=submit]")
	b.waitText(t, `[data-control="b/config"][role=alert]`, "Change a value first.")

	// c1 leaves: c2 takes its place in b's list, with the default max.
	b.fill(t, member("b", "c1")+" [name=max]", "1")
	b.click(t, member("b", "c1")+" [data-action=leave]")
	b.waitCount(t, member("b", "c1"), 0)
	steps := b.steps(t)
	b.click(t, member("b", "c2")+" [data-action=poll]")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(".timeline").dataset.length !== %s`, js(steps)))
	if got := b.text(t, ".timeline .script-line[data-step="+js(b.steps(t))+"]"); got != "poll b c2 max=5" {
		t.Errorf("c2's Poll wrote %q, want poll b c2 max=5", got)
	}
	b.noErrors(t)
}
