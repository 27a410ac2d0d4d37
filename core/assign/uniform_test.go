package assign

import "testing"

// Cases of Kafka's UniformHomogeneousAssignmentBuilderTest
// (group-coordinator's tests, with its topic ids), expected assignments
// as Kafka's test gives them.
func TestUniformHomogeneousKafkaCases(t *testing.T) {
	runServerCases(t, []serverCase{
		{
			name: "testOneMemberNoTopicSubscription", assignor: Uniform,
			partitions: map[string]int{"topic1": 3},
			members:    []string{"A:"},
			want:       map[string]string{"A": ""},
		},
		{
			name: "testOneMemberSubscribedToNonexistentTopic", assignor: Uniform,
			partitions: map[string]int{"topic1": 3},
			members:    []string{"A:topic3"},
			want:       map[string]string{"A": ""},
		},
		{
			name: "testFirstAssignmentTwoMembersTwoTopicsNoMemberRacks", assignor: Uniform,
			partitions: map[string]int{"topic1": 3, "topic3": 2},
			members:    []string{"A:topic1,topic3", "B:topic1,topic3"},
			want:       map[string]string{"A": "topic3/0 topic3/1", "B": "topic1/0 topic1/1 topic1/2"},
		},
	})
}
