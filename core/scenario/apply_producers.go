package scenario

import (
	"fmt"
	"strings"

	"plog/core"
)

// The named producers' commands (core/producer.go, core/txn.go):
//
//	producer-config NAME [acks=...] [enable.idempotence=...] [max.in.flight.requests.per.connection=N] [retries=N] [transactional.id=ID] ...
//	produce TOPIC ... producer=NAME
//	wire PRODUCER lose-request|lose-response [after=N] [count=N]
//	txn PRODUCER init|begin|commit|abort | txn PRODUCER send-offsets group=GROUP
const (
	CmdProducerConfig = "producer-config"
	CmdWire           = "wire"
	CmdTxn            = "txn"
)

// TxnActions are what the txn command does, by KafkaProducer's methods:
// initTransactions, beginTransaction, sendOffsetsToTransaction,
// commitTransaction, abortTransaction.
var TxnActions = []string{"init", "begin", "send-offsets", "commit", "abort"}

// WireFaults are the faults the wire command makes.
var WireFaults = []string{string(core.LoseRequest), string(core.LoseResponse)}

// producerConfigs are the named producer's configs, from the engine's
// config registry; its transactional.id is a name=value argument of its
// own.
var producerConfigs = configArgs(core.Configs(core.OnProduce))

// producerCommandSpecs are the grammar of the named producers' commands.
var producerCommandSpecs = []*commandSpec{
	{
		name:       CmdProducerConfig,
		usage:      "producer-config NAME [config=value ...] [transactional.id=ID]",
		positional: []argSpec{pos("producer", kindName)},
		named:      []argSpec{{name: core.TransactionalIDConfig, kind: kindName}},
		configs:    func([]string) []argSpec { return producerConfigs },
	},
	{
		name:       CmdWire,
		usage:      "wire PRODUCER lose-request|lose-response [after=N] [count=N]",
		positional: []argSpec{pos("producer", kindName), {name: "fault", kind: kindChoice, choices: WireFaults}},
		named: []argSpec{
			{name: "after", kind: kindCount, min: 0, max: core.MaxProduceRequests},
			{name: "count", kind: kindCount, min: 1, max: core.MaxProduceRequests},
		},
	},
	{
		name:       CmdTxn,
		usage:      "txn PRODUCER init|begin|commit|abort | txn PRODUCER send-offsets group=GROUP",
		positional: []argSpec{pos("producer", kindName), {name: "action", kind: kindChoice, choices: TxnActions}},
		named:      []argSpec{{name: "group", kind: kindName, names: groupNames}},
		check:      checkTxn,
	},
}

func checkTxn(c *Command) error {
	g, hasGroup := c.arg("group")
	switch {
	case c.Positional(1) == "send-offsets" && !hasGroup:
		return errAt(c, c.Args[1], "txn %s send-offsets needs group=GROUP: whose positions the transaction commits", c.Positional(0))
	case c.Positional(1) != "send-offsets" && hasGroup:
		return errAt(c, g, "group= goes with send-offsets only")
	}
	return nil
}

// applyProducerCommand runs a named producer's command; handled is false
// for a command of another kind.
func (w *world) applyProducerCommand(c Command) (handled bool, err error) {
	name := c.Positional(0)
	switch c.Name {
	case CmdProducerConfig:
		cfg := configs(c)
		if id, ok := c.Value(core.TransactionalIDConfig); ok {
			cfg[core.TransactionalIDConfig] = id
		}
		return true, w.log.NewProducer(name, cfg)
	case CmdWire:
		after, err := c.CountOr("after", 0)
		if err != nil {
			return true, err
		}
		count, err := c.CountOr("count", 1)
		if err != nil {
			return true, err
		}
		return true, w.log.AddWireFault(name, core.WireFault(c.Positional(1)), after, count)
	case CmdTxn:
		switch c.Positional(1) {
		case "init":
			return true, w.log.InitTransactions(name)
		case "begin":
			return true, w.log.BeginTransaction(name)
		case "send-offsets":
			// It reads every member's position on every partition, and the
			// commit writes them: a unit a partition of the scenario, so
			// that thousands of them over thousands of partitions are
			// refused rather than taking the page's seconds.
			if err := w.spend(int64(w.totalPartitions())); err != nil {
				return true, err
			}
			group, _ := c.Value("group")
			return true, w.log.SendOffsetsToTransaction(name, group)
		case "commit":
			return true, w.log.CommitTransaction(name)
		case "abort":
			return true, w.log.AbortTransaction(name)
		}
	}
	return false, nil
}

// produceAs is a produce through a named producer (producer=NAME): its
// acks, partitioner, retries, idempotence and transaction apply.
func (w *world) produceAs(c Command, req core.ProduceRequest, count int64) error {
	name, ok := c.Value("producer")
	if !ok {
		return fmt.Errorf("values= goes with producer=NAME: a named producer's send")
	}
	if c.Has("acks") || c.Has("partitioner") {
		return fmt.Errorf("produce with producer=%s takes that producer's acks and partitioner: set them with producer-config", name)
	}
	values := []string{req.Value}
	if list, ok := c.Value("values"); ok {
		if c.Has("value") || c.Has("count") || req.Tombstone {
			return fmt.Errorf("values= gives each record its value: leave out value=, count= and tombstone")
		}
		values = strings.Split(list, ",")
		count = 1
		if w.produced+int64(len(values)) > MaxRecords {
			return fmt.Errorf("this produce would take the scenario to %d records; a scenario may produce at most %d", w.produced+int64(len(values)), MaxRecords)
		}
		if err := w.spend(int64(len(values)) - 1); err != nil { // produce spent one
			return err
		}
	}
	outcomes, err := w.log.ProduceAs(name, req, values, int(count))
	if err != nil {
		return err
	}
	for _, o := range outcomes {
		w.produced += int64(1 + len(o.Duplicates))
	}
	return nil // each retry was a request more, counted as it went (meter)
}

// producerEventText writes the fields of a named producer's event about a
// batch or a marker.
func producerEventText(b *strings.Builder, e core.Event, tp string) {
	fmt.Fprintf(b, " producer=%s %s", e.Member, tp)
	if e.Kind != core.EventTxnMarker && e.Count >= 0 {
		fmt.Fprintf(b, " seq=%d", e.Count)
	}
	if e.Kind == core.EventTxnMarker || e.Offset >= 0 && e.Kind != core.EventRequestLost && e.Kind != core.EventOutOfOrder {
		fmt.Fprintf(b, " offset=%d", e.Offset)
	}
}
