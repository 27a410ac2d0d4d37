package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// consumerGroupScript has a consumer-protocol group with a static member,
// a classic group rolled part way to the consumer protocol, and a consumer
// group its only member left.
const consumerGroupScript = `topic orders partitions=3
topic audit partitions=1
config group g auto.offset.reset=earliest
join g c1 topics=orders,audit group.protocol=consumer instance=i1
join g c2 topics=orders,audit group.protocol=consumer
advance 1s
join up k1 topics=orders
join up k2 topics=orders
advance 4s
join up k3 topics=orders group.protocol=consumer
join gone e1 topics=orders group.protocol=consumer
leave gone e1
`

// jsonConsumerGroup is what --json says of a group of the consumer
// protocol.
type jsonConsumerGroup struct {
	Name            string
	State           string
	Protocol        string
	GroupEpoch      *int   `json:"group_epoch"`
	AssignmentEpoch *int   `json:"assignment_epoch"`
	Assignor        string `json:"assignor"`
	Members         []struct {
		ID         string
		MemberID   string `json:"member_id"`
		Instance   string `json:"instance"`
		Protocol   string
		Epoch      *int
		Assignment []jsonAssignment
		Target     []jsonAssignment `json:"target_assignment"`
	}
}

type jsonAssignment struct {
	Topic      string
	Partitions []int
}

// verbose writes an assignment as the tool's verbose columns do.
func verbose(as []jsonAssignment) string {
	if len(as) == 0 {
		return "-"
	}
	var parts []string
	for _, a := range as {
		var nums []string
		for _, p := range a.Partitions {
			nums = append(nums, fmt.Sprint(p))
		}
		parts = append(parts, a.Topic+":"+strings.Join(nums, ","))
	}
	return strings.Join(parts, ";")
}

// plogsim run prints a consumer-protocol group's members as Kafka 4.4's
// kafka-consumer-groups --describe --members --verbose does
// (ConsumerGroupCommand.printMembers of kafka-tools 4.4.0): member id,
// GROUP-INSTANCE-ID only when a member is static, client id, partitions,
// the member's epoch and assignment, the target assignment's epoch and the
// member's target, UPGRADED only in a group holding both protocols,
// "is rebalancing" before the members of a group not Stable, and "has no
// active members" for a group without members. --json holds the
// same facts as fields: the protocol, the epochs, the assignor, and per
// member its protocol, epoch and target assignment.
func TestRunPrintsConsumerGroupsLikeKafkaTools(t *testing.T) {
	file := writeFile(t, consumerGroupScript)
	code, text, errOut := plogsim(t, "", "run", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, out, errOut := plogsim(t, "", "run", "--json", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var st struct{ Groups []jsonConsumerGroup }
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	groups := map[string]jsonConsumerGroup{}
	for _, g := range st.Groups {
		groups[g.Name] = g
	}
	sections := map[string]string{}
	for _, s := range strings.Split(text, "\ngroup ")[1:] {
		name, _, _ := strings.Cut(s, ":")
		sections[name] = s
	}

	g := groups["g"]
	if g.Protocol != "consumer" || g.GroupEpoch == nil || g.AssignmentEpoch == nil || g.Assignor != "uniform" || len(g.Members) != 2 {
		t.Fatalf("group g in JSON: %+v", g)
	}
	header := "GROUP  CONSUMER-ID             GROUP-INSTANCE-ID  CLIENT-ID  #PARTITIONS  CURRENT-EPOCH  CURRENT-ASSIGNMENT  TARGET-EPOCH  TARGET-ASSIGNMENT\n"
	if !strings.Contains(sections["g"], header) {
		t.Errorf("group g, with a static member, lacks the header %q:\n%s", header, sections["g"])
	}
	for _, m := range g.Members {
		if m.Protocol != "consumer" || m.Epoch == nil || m.MemberID == "" || len(m.Target) == 0 {
			t.Fatalf("member %s of g in JSON: %+v", m.ID, m)
		}
		fields := []string{"g", m.MemberID}
		if m.Instance != "" {
			fields = append(fields, m.Instance)
		}
		n := 0
		for _, a := range m.Assignment {
			n += len(a.Partitions)
		}
		fields = append(fields, m.ID, fmt.Sprint(n), fmt.Sprint(*m.Epoch), verbose(m.Assignment), fmt.Sprint(*g.AssignmentEpoch), verbose(m.Target))
		if !hasRow(sections["g"], fields) {
			t.Errorf("group g lacks the row %q:\n%s", fields, sections["g"])
		}
	}
	if !strings.Contains(sections["g"], "audit:0;orders:") {
		t.Errorf("a member's assignment of two topics is not written topic:partitions;topic:partitions:\n%s", sections["g"])
	}

	up := groups["up"]
	if up.Protocol != "consumer" || len(up.Members) != 3 || up.State != "reconciling" || g.State != "stable" {
		t.Fatalf("group up in JSON: %+v; g's state %s", up, g.State)
	}
	// The tool warns before the members of a group that is not Stable.
	if !strings.Contains(sections["up"], "\nWarning: Consumer group 'up' is rebalancing.\nGROUP  CONSUMER-ID") || strings.Contains(sections["g"], "Warning") {
		t.Errorf("the reconciling group up lacks the tool's warning, or the stable g has it:\n%s\n%s", sections["up"], sections["g"])
	}
	if want := "TARGET-ASSIGNMENT  UPGRADED\n"; !strings.Contains(sections["up"], want) || strings.Contains(sections["up"], "GROUP-INSTANCE-ID") {
		t.Errorf("group up, mid-upgrade and without static members, has no UPGRADED column or has GROUP-INSTANCE-ID:\n%s", sections["up"])
	}
	for _, m := range up.Members {
		upgraded := map[string]string{"classic": "false", "consumer": "true"}[m.Protocol]
		if upgraded == "" || m.Protocol != map[bool]string{true: "consumer", false: "classic"}[m.ID == "k3"] {
			t.Fatalf("member %s of up in JSON has protocol %q", m.ID, m.Protocol)
		}
		row := []string{"up", m.MemberID, m.ID, fmt.Sprint(len(m.Assignment)), fmt.Sprint(*m.Epoch), verbose(m.Assignment), fmt.Sprint(*up.AssignmentEpoch), verbose(m.Target), upgraded}
		if !hasRow(sections["up"], row) {
			t.Errorf("group up lacks the row %q:\n%s", row, sections["up"])
		}
	}

	if gone := groups["gone"]; gone.Protocol != "consumer" || len(gone.Members) != 0 {
		t.Fatalf("group gone in JSON: %+v", gone)
	}
	if want := "\nConsumer group 'gone' has no active members.\n"; !strings.Contains(sections["gone"], want) {
		t.Errorf("group gone lacks %q:\n%s", want, sections["gone"])
	}
}

// hasRow reports whether a line of text holds exactly these fields,
// separated by spaces.
func hasRow(text string, fields []string) bool {
	for _, line := range strings.Split(text, "\n") {
		if strings.Join(strings.Fields(line), " ") == strings.Join(fields, " ") {
			return true
		}
	}
	return false
}
