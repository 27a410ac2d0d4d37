package scenario

import (
	"fmt"
	"testing"
)

// LoadYielding gives Load's session and error, failures included.
func TestLoadYieldingIsLoad(t *testing.T) {
	for _, script := range []string{
		"",
		"seed 7\ntopic t partitions=3\nproduce t key=a value=1 count=50\njoin g c1 topics=t\npoll g c1 max=10\ncommit g c1\nadvance 5m\n",
		"topic t\nproduce t value=v\nproduce nosuch value=v\nproduce t value=w\n", // refused on line 3
		"topic t\nproduce t value=v\nprodcue t\n",                                 // does not parse on line 3
	} {
		want, wantErr := Load(script)
		got, gotErr := LoadYielding(script)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%q: error %v, want %v", script, gotErr, wantErr)
		}
		if got.Script() != want.Script() || got.Len() != want.Len() || StateText(got.Log()) != StateText(want.Log()) {
			t.Errorf("%q: loaded\n%s\nwant\n%s", script, StateText(got.Log()), StateText(want.Log()))
		}
	}
}
