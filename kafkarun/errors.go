package kafkarun

import (
	"errors"
	"fmt"
	"io"

	"github.com/twmb/franz-go/pkg/kerr"
)

// explain adds to a cluster's error what a learner should do about it:
// which permission is missing, that authentication failed, that the broker
// may want TLS or SASL.
func explain(err error) error {
	var hint string
	switch {
	case err == nil:
		return nil
	case errors.Is(err, kerr.TopicAuthorizationFailed):
		hint = "not authorized on a topic: the run needs CREATE, DESCRIBE, WRITE, READ and DELETE on topics starting with its prefix"
	case errors.Is(err, kerr.GroupAuthorizationFailed):
		hint = "not authorized on a group: the run needs READ, DESCRIBE and DELETE on groups starting with its prefix"
	case errors.Is(err, kerr.ClusterAuthorizationFailed):
		hint = "not authorized on the cluster"
	case errors.Is(err, kerr.SaslAuthenticationFailed), errors.Is(err, kerr.IllegalSaslState),
		errors.Is(err, kerr.UnsupportedSaslMechanism):
		hint = "authentication failed: check the user, password and mechanism"
	case isClosed(err):
		hint = "the broker closed the connection: does it want TLS or SASL?"
	default:
		return err
	}
	return fmt.Errorf("%s (%w)", hint, err)
}

// isClosed says the broker closed the connection.
func isClosed(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}
