package app

import (
	"fmt"
	"testing"

	"plog/core/scenario"
)

// The page replays a link command by command, pausing between them; the
// result is scenario.Load's, failures included.
func TestLoadScriptIsLoad(t *testing.T) {
	for _, script := range []string{
		"",
		"seed 7\ntopic t partitions=3\nproduce t key=a value=1 count=50\njoin g c1 topics=t\npoll g c1 max=10\ncommit g c1\nadvance 5m\n",
		"topic t\nproduce t value=v\nproduce nosuch value=v\nproduce t value=w\n", // refused on line 3
		"topic t\nproduce t value=v\nprodcue t\n",                                 // does not parse
	} {
		want, wantErr := scenario.Load(script)
		got, gotErr := loadScript(script)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%q: error %v, want %v", script, gotErr, wantErr)
		}
		if got.Script() != want.Script() || scenario.StateText(got.Log()) != scenario.StateText(want.Log()) {
			t.Errorf("%q: loaded\n%s\nwant\n%s", script, scenario.StateText(got.Log()), scenario.StateText(want.Log()))
		}
	}
}
