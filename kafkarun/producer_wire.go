package kafkarun

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core"
	"plog/core/scenario"
)

// Wire faults on the cluster. A client cannot make the network lose its
// requests, but it can lose them itself, below the protocol: each named
// producer's connections go through a wireConn, which loses a produce
// request before the broker (it cuts the connection instead of writing
// it) or the broker's answer after the broker appended (it cuts the
// connection once the answer arrives). franz-go then sends the batch again
// on a new connection, as Kafka's Sender does after a request timeout, and
// the broker appends it again or, for an idempotent producer, drops the
// duplicate by producer id and sequence (Kafka 4.4 ProducerStateManager).
//
// The playground sends every record as a batch of its own, one request
// each; franz-go sends a command's records to a partition in one batch. So
// the run makes a fault on the cluster only where the two send alike: a
// produce of one record, whose every attempt the playground's faults hit
// in turn and that was written in the end. Elsewhere the fault is not
// made, and what it changed differs with ReasonWireFault.

// produceKey is the api key of a Produce request.
const produceKey = 0

// wireFaults are the faults a producer's next produce requests meet, in
// order.
type wireFaults struct {
	mu      sync.Mutex
	pending []core.WireFault
}

func (w *wireFaults) arm(faults []core.WireFault) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = append(w.pending, faults...)
}

// next takes the fault the next produce request meets, "" for none.
func (w *wireFaults) next() core.WireFault {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 {
		return ""
	}
	f := w.pending[0]
	w.pending = w.pending[1:]
	return f
}

// disarm drops the faults no request has met, and says how many.
func (w *wireFaults) disarm() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(w.pending)
	w.pending = nil
	return n
}

// errWireFault is the error a lost request or answer gives the client.
var errWireFault = errors.New("plog wire fault: the connection was cut")

// wireConn is a producer's connection to a broker, which makes its
// producer's armed faults.
type wireConn struct {
	net.Conn
	faults     *wireFaults
	loseAnswer bool
}

// Write sees each request whole (franz-go writes a request, its size
// first, in one call): a Produce request meets the next fault.
func (c *wireConn) Write(b []byte) (int, error) {
	if len(b) >= 6 && binary.BigEndian.Uint16(b[4:6]) == produceKey {
		switch c.faults.next() {
		case core.LoseRequest:
			c.Conn.Close()
			return 0, errWireFault
		case core.LoseResponse:
			c.loseAnswer = true
		}
	}
	return c.Conn.Write(b)
}

// Read loses the answer to a request whose answer is to be lost: once it
// starts to arrive the broker has appended, and the connection is cut.
func (c *wireConn) Read(b []byte) (int, error) {
	if !c.loseAnswer {
		return c.Conn.Read(b)
	}
	if _, err := c.Conn.Read(b); err != nil {
		return 0, err
	}
	c.Conn.Close()
	return 0, errWireFault
}

// wireDialer dials a producer's connections through wireConn.
func (r *runner) wireDialer(faults *wireFaults) kgo.Opt {
	return kgo.Dialer(func(ctx context.Context, network, host string) (net.Conn, error) {
		conn, err := (&net.Dialer{Timeout: r.opts.DialTimeout}).DialContext(ctx, network, host)
		if err != nil {
			return nil, err
		}
		return &wireConn{Conn: conn, faults: faults}, nil
	})
}

// markWireFaults reads what the playground's wire faults did to a produce:
// for a produce of one record that was written in the end, the faults its
// attempts met, in order, which the cluster's producer is armed with; for
// any other, the partitions its faults touched differ, with their reason.
func (r *runner) markWireFaults(c scenario.Command, events []core.Event) {
	var faults []core.WireFault
	failed := false
	for _, e := range events {
		switch e.Kind {
		case core.EventRequestLost:
			faults = append(faults, core.LoseRequest)
		case core.EventResponseLost:
			faults = append(faults, core.LoseResponse)
		case core.EventSendFailed:
			failed = true
		}
	}
	name, named := c.Value("producer")
	if !named || len(faults) == 0 {
		return
	}
	if !failed && oneRecord(c) && c.Name == scenario.CmdProduce {
		r.txns.armed[name] = faults
		return
	}
	r.marks.note(fmt.Sprintf("line %d: %s: its wire faults were not made on the cluster (they hit a send of more than one record, or one given up)", c.Line, c))
	for _, e := range events {
		switch e.Kind {
		case core.EventRequestLost, core.EventResponseLost, core.EventDuplicateDropped, core.EventOutOfOrder, core.EventSendFailed:
			r.marks.partition(tp{e.Topic, e.Partition}, ReasonWireFault)
			r.txns.mark(e.Member, ReasonWireFault)
		}
	}
}

// oneRecord says a produce sends one record.
func oneRecord(c scenario.Command) bool {
	if list, ok := c.Value("values"); ok {
		return !strings.Contains(list, ",")
	}
	n, err := c.CountOr("count", 1)
	return err == nil && n == 1
}

// armWireFaults arms the producer's connections with the faults the
// playground's same produce met, and returns a check that all were made.
func (r *runner) armWireFaults(c scenario.Command, p *producerRun) func() {
	faults := r.txns.armed[p.name]
	if len(faults) == 0 {
		return func() {}
	}
	delete(r.txns.armed, p.name)
	p.faults.arm(faults)
	return func() {
		if p.faults.disarm() > 0 {
			r.marks.note(fmt.Sprintf("line %d: %s: a wire fault the playground made was not met on the cluster", c.Line, c))
		}
	}
}

// wireRetryBackoff is franz-go's wait before it sends a batch again after
// its connection was cut, and the least age of the metadata it waits for:
// short, so that the run does not wait out the playground's
// request.timeout.ms (retries are not timed on either side).
const wireRetryBackoff = 50 * time.Millisecond
