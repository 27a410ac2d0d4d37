package kafkarun

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

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

// again puts a fault back first, for the next produce request to meet.
func (w *wireFaults) again(f core.WireFault) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = append([]core.WireFault{f}, w.pending...)
}

// errWireFault is the error a lost request or answer gives the client.
var errWireFault = errors.New("plog wire fault: the connection was cut")

// wireConn is a producer's connection to a broker, which makes its
// producer's armed faults.
type wireConn struct {
	net.Conn
	faults *wireFaults
	// loseAnswer says the answer to the produce request just written,
	// of version, is to be lost; passed holds an answer read whole and
	// handed on.
	loseAnswer bool
	version    int16
	passed     []byte
}

// Write sees each request whole (franz-go writes a request, its size
// first, in one call): a Produce request meets the next fault.
func (c *wireConn) Write(b []byte) (int, error) {
	if len(b) >= 8 && binary.BigEndian.Uint16(b[4:6]) == produceKey {
		switch c.faults.next() {
		case core.LoseRequest:
			c.Conn.Close()
			return 0, errWireFault
		case core.LoseResponse:
			c.loseAnswer, c.version = true, int16(binary.BigEndian.Uint16(b[6:8]))
		}
	}
	return c.Conn.Write(b)
}

// Read loses the answer to a produce request whose answer is to be lost,
// when it is an append's: the connection is cut, as if the answer never
// came. A broker that refused the request wrote nothing (a leader not yet
// leading the partition answers NOT_LEADER_OR_FOLLOWER, Kafka 4.4's
// ReplicaManager.appendRecords), and the playground's lost answer is one
// of a write: that answer is handed on, and the fault waits for the
// client's next produce request.
func (c *wireConn) Read(b []byte) (int, error) {
	if len(c.passed) > 0 {
		n := copy(b, c.passed)
		c.passed = c.passed[n:]
		return n, nil
	}
	if !c.loseAnswer {
		return c.Conn.Read(b)
	}
	c.loseAnswer = false
	answer, appended, err := readProduceAnswer(c.Conn, c.version)
	if err != nil {
		return 0, err
	}
	if !appended {
		c.faults.again(core.LoseResponse)
		c.passed = answer
		return c.Read(b)
	}
	c.Conn.Close()
	return 0, errWireFault
}

// readProduceAnswer reads one answer to a Produce request of version from
// r, whole, as it came (its size first), and says whether every partition
// of it was written (no error code).
func readProduceAnswer(r io.Reader, version int16) ([]byte, bool, error) {
	answer := make([]byte, 4)
	if _, err := io.ReadFull(r, answer); err != nil {
		return nil, false, err
	}
	size := binary.BigEndian.Uint32(answer)
	if size > 100<<20 {
		return nil, false, fmt.Errorf("a produce answer of %d bytes", size)
	}
	answer = append(answer, make([]byte, size)...)
	if _, err := io.ReadFull(r, answer[4:]); err != nil {
		return nil, false, err
	}
	resp := kmsg.NewPtrProduceResponse()
	resp.Version = version
	// The answer's header: its correlation id, then, for a flexible
	// version, its tagged fields (none from Kafka: one byte, 0).
	body := answer[8:]
	if resp.IsFlexible() {
		if len(body) == 0 || body[0] != 0 {
			return answer, true, nil // tags we do not read: taken as a write, as before
		}
		body = body[1:]
	}
	if err := resp.ReadFrom(body); err != nil {
		return answer, true, nil
	}
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			if p.ErrorCode != 0 {
				return answer, false, nil
			}
		}
	}
	return answer, true, nil
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
