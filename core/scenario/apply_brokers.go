package scenario

import "strconv"

// applyBrokerCommand runs brokers and broker: the cluster's size and what
// happens to one broker.
func (w *world) applyBrokerCommand(c Command) error {
	if c.Name == "brokers" {
		if v, ok := c.Value("replica.lag.time.max.ms"); ok {
			ms, _ := parseMs(v)
			if err := w.log.SetReplicaLagTimeMaxMs(ms); err != nil {
				return err
			}
		}
		return w.log.SetBrokers(intPositional(c, 1))
	}
	id := intPositional(c, 2)
	switch c.Positional(0) {
	case "crash":
		return w.log.CrashBroker(id)
	case "restart":
		return w.log.RestartBroker(id)
	case "isolate":
		return w.log.IsolateBroker(id)
	case "heal":
		return w.log.HealBroker(id)
	}
	pace, _ := parseRate(mustValue(c, "pace"))
	return w.log.SlowBroker(id, pace.Count, pace.Per)
}

// intPositional returns the n-th positional argument (from 1) as a whole
// number the grammar has already checked.
func intPositional(c Command, n int) int {
	v, _ := strconv.Atoi(c.Positional(n - 1))
	return v
}

// parseMs reads a *.ms value in its canonical form: -1 or a duration.
func parseMs(text string) (int64, error) {
	if text == "-1" {
		return -1, nil
	}
	return parseDuration(text)
}
