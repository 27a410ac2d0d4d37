package e2e

import (
	"fmt"
	"testing"
)

// What a learner types into one group's or one member's fields stays with
// that group or member: a group sorted before it appearing, another group
// selected in the inspector, or a member before it leaving, never hands the
// typed text to another one, where a click would send it for the wrong
// group.
func TestTypedGroupFieldsStayWithTheirGroup(t *testing.T) {
	t.Parallel()
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
	c := b.groupInspector(t, "c")
	untouched := value(c + ` .group-config [name="lag.alert.records"]`)
	b.fill(t, member("b", "c1")+" [name=max]", "1")
	b.fill(t, c+` .group-config [name="lag.alert.records"]`, "7")
	b.fill(t, c+" .group-reset [name=scope]", "orders/1")
	b.fill(t, c+" .group-commit [name=offset]", "3")

	// Group a sorts before b and c: every card moves down one place, and
	// the inspector still shows c with what was typed for it.
	b.joinMember(t, "a", "x1", "orders", "", "")
	b.waitCount(t, member("a", "x1"), 1)
	if got := value(member("a", "x1") + " [name=max]"); got != "5" {
		t.Errorf("x1's max shows %q after group a appeared, want 5", got)
	}
	if got := value(c + ` .group-config [name="lag.alert.records"]`); got != "7" {
		t.Errorf("c's lag.alert.records shows %q after group a appeared, want the 7 typed", got)
	}
	// Another group in the inspector gets none of it.
	g := b.groupInspector(t, "b")
	for _, f := range []struct{ selector, want string }{
		{g + ` .group-config [name="lag.alert.records"]`, untouched},
		{g + " .group-reset [name=scope]", ""},
		{g + " .group-commit [name=offset]", ""},
	} {
		if got := value(f.selector); got != f.want {
			t.Errorf("%s shows %q after b was selected, want %q", f.selector, got, f.want)
		}
	}
	b.click(t, g+" .group-config button[type=submit]")
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
