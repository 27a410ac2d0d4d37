package kafkabroker

// ServerAssignCase is one question for the group coordinator's own
// server-side assignors (maven/src/main/java/plog/ServerAssignOracle.java).
type ServerAssignCase struct {
	// Assignor is uniform or range.
	Assignor string `json:"assignor"`
	// Topics holds each topic that exists: its id (Kafka's base64 form)
	// and partition count.
	Topics  map[string]ServerAssignTopic `json:"topics"`
	Members []ServerAssignMember         `json:"members"`
	// Heterogeneous gives the assignor that subscription type whatever
	// the subscriptions (as a test of Kafka's may).
	Heterogeneous bool `json:"heterogeneous,omitempty"`
}

// ServerAssignTopic is a topic as the coordinator's metadata image has it.
type ServerAssignTopic struct {
	ID         string `json:"id"`
	Partitions int    `json:"partitions"`
}

// ServerAssignMember is a member as the assignor sees it: its
// subscription by name (names of missing topics included) and its current
// target assignment as [topic, partition] pairs.
type ServerAssignMember struct {
	ID       string   `json:"id"`
	Instance string   `json:"instance,omitempty"`
	Topics   []string `json:"topics"`
	Target   [][2]any `json:"target,omitempty"`
}

// ServerOracle is a running ServerAssignOracle.
type ServerOracle struct{ o *Oracle }

// StartServerOracle starts the server-side assignment oracle from the
// cached jars.
func StartServerOracle() (*ServerOracle, error) {
	o, err := startJSONProgram("plog.ServerAssignOracle")
	if err != nil {
		return nil, err
	}
	return &ServerOracle{o}, nil
}

// Assign returns Java's target assignment: member id → [topic, partition]
// pairs.
func (s *ServerOracle) Assign(c ServerAssignCase) (map[string][][2]any, error) {
	return s.o.ask(c)
}

// Close stops the oracle.
func (s *ServerOracle) Close() error { return s.o.Close() }
