package kafkarun

import (
	"crypto/tls"
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// SASLMechanisms are the mechanisms SASL accepts.
var SASLMechanisms = []string{"plain", "scram-sha-256", "scram-sha-512"}

// SASL returns the client option that authenticates with a user and
// password by one of SASLMechanisms.
func SASL(mechanism, user, password string) (kgo.Opt, error) {
	switch strings.ToLower(mechanism) {
	case "plain":
		return kgo.SASL(plain.Auth{User: user, Pass: password}.AsMechanism()), nil
	case "scram-sha-256":
		return kgo.SASL(scram.Auth{User: user, Pass: password}.AsSha256Mechanism()), nil
	case "scram-sha-512":
		return kgo.SASL(scram.Auth{User: user, Pass: password}.AsSha512Mechanism()), nil
	}
	return nil, fmt.Errorf("unknown SASL mechanism %q: use %s", mechanism, strings.Join(SASLMechanisms, ", "))
}

// TLS returns the client option that connects over TLS, checking the
// brokers' certificates against the system's roots.
func TLS() kgo.Opt {
	return kgo.DialTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12})
}
