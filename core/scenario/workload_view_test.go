package scenario

import (
	"strings"
	"testing"
)

func TestWorkloadsListsWhatRunsAndHowToStopIt(t *testing.T) {
	s, err := Load(`seed 1
topic views partitions=2
join stats s1 topics=views
producer web views rate=10/s keys=zipf keyspace=5 exponent=2
consumer stats s1 rate=1/s commit
`)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Workloads()
	if len(got) != 2 {
		t.Fatalf("%d workloads, want 2: %+v", len(got), got)
	}
	p, c := got[0], got[1]
	if !p.Producer || p.Name != "web" || p.Topic != "views" || p.Keys != "zipf" ||
		p.Line != "producer web views rate=10/s keys=zipf keyspace=5 exponent=2" || p.StopLine() != "stop web" {
		t.Errorf("producer: %+v, stop %q", p, p.StopLine())
	}
	if c.Producer || c.Group != "stats" || c.Member != "s1" || c.Line != "consumer stats s1 rate=1/s commit" || c.StopLine() != "stop stats s1" {
		t.Errorf("consumer: %+v, stop %q", c, c.StopLine())
	}
	for _, w := range got {
		if _, err := s.Apply(w.StopLine()); err != nil {
			t.Errorf("%s: %v", w.StopLine(), err)
		}
	}
	if n := len(s.Workloads()); n != 0 {
		t.Errorf("%d workloads after stopping both", n)
	}
	if err := s.Seek(5); err != nil {
		t.Fatal(err)
	}
	if n := len(s.Workloads()); n != 2 {
		t.Errorf("back at step 5, %d workloads run, want 2", n)
	}
}

// ProducedAhead shows what the producers would write, and changes nothing.
func TestProducedAheadForeseesTheProducersWithoutApplying(t *testing.T) {
	s, err := Load("seed 1\ntopic views partitions=1\njoin stats s1 topics=views\nadvance 3s\nproducer web views rate=10/s\nconsumer stats s1 rate=1/s commit\n")
	if err != nil {
		t.Fatal(err)
	}
	script := s.Script()
	ahead, err := s.ProducedAhead(60_000)
	if err != nil {
		t.Fatal(err)
	}
	if hw, _ := ahead.HighWatermark("views", 0); hw != 600 {
		t.Errorf("a minute ahead views/0 has %d records, want 600", hw)
	}
	if g, _ := ahead.Group("stats"); g.TotalLag != 0 || len(g.Deliveries) != 0 {
		t.Errorf("the consumer polled ahead: lag %d, %d deliveries", g.TotalLag, len(g.Deliveries))
	}
	if hw, _ := s.Log().HighWatermark("views", 0); hw != 0 || s.Log().Now() != 3000 || s.Script() != script || len(s.Workloads()) != 2 {
		t.Errorf("Ahead changed the session: %d records, clock %d, script %q", hw, s.Log().Now(), s.Script())
	}
	if _, err := s.ProducedAhead(1 << 62); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("an advance past the limit: %v", err)
	}
}

// A producer's own keys are in its view, for the page's strip: the list
// in order, or the pattern; neither for key-N.
func TestWorkloadsShowTheProducersOwnKeys(t *testing.T) {
	s, err := Load(`topic views
producer hot views rate=1/s keys=zipf exponent=1 keylist=acct-7,acct-3
producer ten views rate=1/s keys=uniform keyspace=4 key=tenant-{n}
producer web views rate=1/s keys=uniform keyspace=4
`)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Workloads()
	if len(got) != 3 {
		t.Fatalf("%d workloads, want 3", len(got))
	}
	if strings.Join(got[0].KeyList, ",") != "acct-7,acct-3" || got[0].KeyPattern != "" {
		t.Errorf("hot: list %q, pattern %q", got[0].KeyList, got[0].KeyPattern)
	}
	if got[1].KeyList != nil || got[1].KeyPattern != "tenant-{n}" {
		t.Errorf("ten: list %q, pattern %q", got[1].KeyList, got[1].KeyPattern)
	}
	if got[2].KeyList != nil || got[2].KeyPattern != "" {
		t.Errorf("web: list %q, pattern %q", got[2].KeyList, got[2].KeyPattern)
	}
}
