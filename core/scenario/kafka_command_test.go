package scenario

import (
	"os/exec"
	"strings"
	"testing"
)

func TestKafkaCommandQuotesTheLink(t *testing.T) {
	link, err := EncodeLink("topic orders partitions=3\nproduce orders key=acct-1\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "plogsim kafka --brokers localhost:9092 --link '#" + strings.TrimPrefix(link, "#") + "'"
	if got := KafkaCommand(link); got != want {
		t.Errorf("KafkaCommand(%q) = %q, want %q", link, got, want)
	}
	if got := KafkaCommand(strings.TrimPrefix(link, "#")); got != want {
		t.Errorf("without '#': %q, want %q", got, want)
	}
}

// TestKafkaCommandSurvivesTheShell hands the command line to sh and checks
// that the link arrives as one argument, byte for byte, even when it holds
// quotes and spaces (a hand-edited link may).
func TestKafkaCommandSurvivesTheShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to check the quoting with")
	}
	for _, link := range []string{"#v1.abc-_", "#v1.it's a \"link\" $HOME `x` \\ ;"} {
		line := KafkaCommand(link)
		// printf stands in for plogsim: it prints its last argument.
		script := "set -- " + strings.TrimPrefix(line, "plogsim ") + `; eval "printf %s \"\${$#}\""`
		out, err := exec.Command(sh, "-c", script).Output()
		if err != nil {
			t.Fatalf("sh -c %q: %v", script, err)
		}
		if string(out) != link {
			t.Errorf("the shell passed %q for link %q (command %s)", out, link, line)
		}
	}
}
