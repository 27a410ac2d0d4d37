package assigncases

import (
	"strings"
	"testing"
)

func TestKafkaCasesParse(t *testing.T) {
	cases, ids, err := Kafka()
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 4 || len(cases) < 30 {
		t.Fatalf("%d ids, %d cases", len(ids), len(cases))
	}
	names := map[string]bool{}
	for _, c := range cases {
		if names[c.Name] {
			t.Errorf("case %s twice", c.Name)
		}
		names[c.Name] = true
		if c.Assignor != "uniform" && c.Assignor != "range" {
			t.Errorf("%s: assignor %q", c.Name, c.Assignor)
		}
		if len(c.Want) != len(c.Members) {
			t.Errorf("%s: %d members, %d wants", c.Name, len(c.Members), len(c.Want))
		}
	}
}

func TestParseSaysWhatIsWrong(t *testing.T) {
	for text, want := range map[string]string{
		"member A t":                            "line 1: no case before it",
		"case x uniform\ntopics t=x":            "line 2: bad partition count",
		"case x uniform\nmember A t target=t/x": `line 2: bad partition "t/x"`,
		"case x uniform\nfrobnicate":            "line 2: unknown line",
	} {
		if _, _, err := Parse(text); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %s…", text, err, want)
		}
	}
}
