package kafkabroker

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
)

// KafkaConfig is one config as Kafka's own ConfigDef defines it
// (maven/src/main/java/plog/ConfigDefaults.java): its default, and the
// bounds of its validator when that is a range. A field is "" when Kafka
// has none.
type KafkaConfig struct {
	Scope   string `json:"scope"` // topic, broker, consumer or producer
	Name    string `json:"name"`
	Default string `json:"default"`
	Min     string `json:"min"`
	Max     string `json:"max"`
}

// ConfigDefaults returns every config of Kafka's topics, brokers,
// consumers and producers, by scope and name, read from the Kafka release's
// own classes.
func ConfigDefaults() (map[string]map[string]KafkaConfig, error) {
	cmd, err := javaProgram("plog.ConfigDefaults")
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("reading Kafka's config definitions: %v\n%s", err, tail(stderr.String(), 20))
	}
	configs := map[string]map[string]KafkaConfig{}
	lines := bufio.NewScanner(bytes.NewReader(out))
	for lines.Scan() {
		var c KafkaConfig
		if err := json.Unmarshal(lines.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("reading Kafka's config definitions: %v in %q", err, lines.Text())
		}
		if configs[c.Scope] == nil {
			configs[c.Scope] = map[string]KafkaConfig{}
		}
		configs[c.Scope][c.Name] = c
	}
	if len(configs) != 4 {
		return nil, fmt.Errorf("reading Kafka's config definitions: %d scopes, want topic, broker, consumer and producer", len(configs))
	}
	return configs, nil
}
