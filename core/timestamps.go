package core

// Record timestamps follow Kafka 4.4's two timestamp types, which a topic
// chooses with message.timestamp.type:
//
//   - CreateTime (the default): the record keeps the timestamp its producer
//     gave it. The Java producer stamps a record with its own clock when the
//     application calls send and sets none (KafkaProducer.doSend), so it is
//     the time the record was sent; an application may also set any
//     timestamp of its own.
//   - LogAppendTime: the broker overwrites the timestamp with its clock when
//     it appends the batch (LogValidator.validateMessagesAndAssignOffsets,
//     storage/.../internals/log/LogValidator.java), so timestamps follow
//     the order of offsets.
//
// The playground's producer sends at the instant of its command, the leader
// appends at that same instant, and no command sets a timestamp of its
// own, so both types give the virtual clock at produce (produce.go); the
// type says which clock the number stands for, as a consumer reading
// ConsumerRecord.timestampType() would be told.

// The values of message.timestamp.type, spelt as Kafka spells them.
const (
	TimestampCreateTime    = "CreateTime"
	TimestampLogAppendTime = "LogAppendTime"
)

// TimestampClock says, in words, whose clock a record's timestamp is on a
// topic with this config.
func (c TopicConfig) TimestampClock() string {
	if c.TimestampType == TimestampLogAppendTime {
		return "LogAppendTime: the broker's clock when it appended the record"
	}
	return "CreateTime: the producer's clock when it sent the record"
}
