package scenario

import (
	"slices"
	"testing"

	"plog/core"
)

// The share group commands' lines for TestFlagWordNamesRoundTrip.
func init() {
	nameTemplates[CmdShareJoin] = []string{"share-join NAME NAME topics=NAME", "share-join NAME NAME topics=NAME share.acknowledgement.mode=explicit max.poll.records=3"}
	nameTemplates[CmdSharePoll] = []string{"share-poll NAME NAME max=2"}
	nameTemplates[CmdAcknowledge] = []string{"acknowledge NAME NAME accept", "acknowledge NAME NAME release NAME/0 offsets=1-3"}
	nameTemplates[CmdShareLeave] = []string{"share-leave NAME NAME"}
}

// Any script of share group commands loads without a panic, and its state
// writes as text and JSON.
func FuzzShareScenario(f *testing.F) {
	f.Add("topic t partitions=2\nshare-join g a topics=t share.acknowledgement.mode=explicit\nshare-poll g a\nproduce t key=k count=5\nshare-poll g a max=3\nacknowledge g a release t/0 offsets=0-2\nadvance 31s\nshare-poll g a\n")
	f.Add("topic t\nshare-join g a topics=t\nshare-join g b topics=t max.poll.records=1\nconfig group g share.auto.offset.reset=earliest share.record.lock.duration.ms=15s\nproduce t count=3\nshare-poll g b\ncrash g a\nadvance 1m\nshare-leave g b\n")
	f.Add("topic t\nshare-join g a topics=t share.acknowledgement.mode=explicit\nproduce t key=k\nshare-poll g a\nacknowledge g a renew\nshare-poll g a\nacknowledge g a reject t/0\ntruncate t/0 before=1\nshare-poll g a\n")
	f.Fuzz(func(t *testing.T, script string) {
		s, err := Load(script)
		if s == nil {
			return
		}
		_ = err
		_ = StateText(s.Log())
		if _, err := StateJSON(s.Log()); err != nil {
			t.Fatal(err)
		}
	})
}

// The command line completes share groups and their members, and a share
// group's configs after config group.
func TestCompleteShareGroups(t *testing.T) {
	s, err := Load("topic orders\nshare-join work a topics=orders\nshare-join work b topics=orders\njoin billing c1 topics=orders\n")
	if err != nil {
		t.Fatal(err)
	}
	names := NamesOf(s)
	texts := func(line string) []string {
		var out []string
		for _, c := range Complete(line, len(line), names).Candidates {
			out = append(out, c.Text)
		}
		return out
	}
	if got := texts("share-poll "); !slices.Equal(got, []string{"work"}) {
		t.Errorf("share-poll's groups: %v", got)
	}
	if got := texts("acknowledge work "); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("acknowledge's members: %v", got)
	}
	if got := texts("acknowledge work a "); !slices.Equal(got, slices.Sorted(slices.Values(core.AckTypes()))) {
		t.Errorf("acknowledge's types: %v", got)
	}
	if got := texts("config group "); !slices.Equal(got, []string{"billing", "work"}) {
		t.Errorf("config group's groups: %v", got)
	}
	if got := texts("config group work share.rec"); !slices.Equal(got, []string{"share.record.lock.duration.ms="}) {
		t.Errorf("config group's share configs: %v", got)
	}
}
