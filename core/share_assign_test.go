package core

import (
	"strings"
	"testing"
)

// The SimpleAssignor as Kafka 4.4 computes it
// (SimpleHomogeneousAssignmentBuilder, SimpleHeterogeneousAssignmentBuilder),
// members joining one after another: each partition is shared by
// ceil(members / partitions) members, each member keeps what it had where
// it can, and every member gets work.
func TestSimpleAssignorSharesPartitions(t *testing.T) {
	type join struct{ member, topics string }
	cases := []struct {
		name  string
		joins []join
		leave string
		want  string // each member's partitions after the last change
	}{
		{"one member takes every partition", []join{{"a", "orders"}}, "", "a=orders/0,orders/1,orders/2"},
		{"two members split three partitions, the first keeping two", []join{{"a", "orders"}, {"b", "orders"}}, "", "a=orders/0,orders/1 b=orders/2"},
		{"as many members as partitions: one each", []join{{"a", "orders"}, {"b", "orders"}, {"c", "orders"}}, "", "a=orders/0 b=orders/2 c=orders/1"},
		{"four members on three partitions: two share each", []join{{"a", "orders"}, {"b", "orders"}, {"c", "orders"}, {"d", "orders"}}, "",
			"a=orders/0,orders/2 b=orders/2 c=orders/0,orders/1 d=orders/1"},
		{"a member leaves: the others take its partitions, keeping theirs", []join{{"a", "orders"}, {"b", "orders"}, {"c", "orders"}}, "b",
			"a=orders/0,orders/2 c=orders/1"},
		{"different subscriptions: each topic among its own members", []join{{"a", "orders"}, {"b", "orders,pay"}}, "",
			"a=orders/0,orders/1 b=orders/2,pay/0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := NewPartitionedLog(1)
			for _, topic := range []struct {
				name string
				n    int
			}{{"orders", 3}, {"pay", 1}} {
				if err := l.CreateTopic(topic.name, topic.n, nil); err != nil {
					t.Fatal(err)
				}
			}
			for _, j := range tc.joins {
				if err := l.ShareJoin("work", j.member, ShareJoinOptions{Topics: strings.Split(j.topics, ",")}); err != nil {
					t.Fatal(err)
				}
			}
			if tc.leave != "" {
				if err := l.ShareLeave("work", tc.leave); err != nil {
					t.Fatal(err)
				}
			}
			v, err := l.ShareGroup("work")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range v.Members {
				var tps []string
				for _, tp := range m.Assignment {
					tps = append(tps, tp.Topic+"/"+itoa(tp.Partition))
				}
				got = append(got, m.Name+"="+strings.Join(tps, ","))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("got  %s\nwant %s", strings.Join(got, " "), tc.want)
			}
		})
	}
}
