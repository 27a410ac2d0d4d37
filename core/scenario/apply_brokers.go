package scenario

// applyBrokerCommand runs brokers and broker: the cluster's size and what
// happens to one broker.
func (w *world) applyBrokerCommand(c Command) error {
	if c.Name == CmdBrokers {
		if c.Has("replica.lag.time.max.ms") {
			ms, err := c.Duration("replica.lag.time.max.ms")
			if err != nil {
				return err
			}
			if err := w.log.SetReplicaLagTimeMaxMs(ms); err != nil {
				return err
			}
		}
		if policy, ok := c.Value("group.consumer.migration.policy"); ok {
			if err := w.log.SetConsumerMigrationPolicy(policy); err != nil {
				return err
			}
		}
		n, err := c.CountAt(0)
		if err != nil {
			return err
		}
		return w.log.SetBrokers(int(n))
	}
	id, err := c.CountAt(1)
	if err != nil {
		return err
	}
	switch c.Positional(0) {
	case "crash":
		return w.log.CrashBroker(int(id))
	case "restart":
		return w.log.RestartBroker(int(id))
	case "isolate":
		return w.log.IsolateBroker(int(id))
	case "heal":
		return w.log.HealBroker(int(id))
	}
	pace, err := c.Rate("pace")
	if err != nil {
		return err
	}
	return w.log.SlowBroker(int(id), pace.Count, pace.Per)
}
