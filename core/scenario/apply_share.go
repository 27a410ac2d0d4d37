package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"plog/core"
)

// This file is the language of share groups (KIP-932; core/share.go): a
// member joins with share-join, polls with share-poll, acknowledges with
// ack (explicit mode) and leaves with share-leave; crash GROUP MEMBER and
// config group GROUP share.…=… work on share groups too.

// The share group commands.
const (
	CmdShareJoin   = "share-join"
	CmdSharePoll   = "share-poll"
	CmdAcknowledge = "acknowledge"
	CmdShareLeave  = "share-leave"
)

// shareMemberConfigs are the share consumer's configs share-join takes,
// and shareGroupConfigs the share group's configs config group takes,
// from the engine's table (core/share_config.go).
var (
	shareMemberConfigs = configArgs(core.ShareConfigs(core.OnShareMember))
	shareGroupConfigs  = configArgs(core.ShareConfigs(core.OnShareGroup))
)

// ShareGroupConfigNames lists the share group configs config group takes
// on a share group, sorted.
func ShareGroupConfigNames() []string {
	var names []string
	for _, d := range core.ShareConfigs(core.OnShareGroup) {
		names = append(names, d.Name)
	}
	return names
}

// shareCommandSpecs are the share group commands' grammar.
var shareCommandSpecs = []*commandSpec{
	{
		name:       CmdShareJoin,
		usage:      "share-join GROUP MEMBER topics=T1,T2 [share.acknowledgement.mode=implicit|explicit] [max.poll.records=N]",
		positional: []argSpec{posIn("group", kindName, shareGroupNames), pos("member", kindName)},
		named: append([]argSpec{
			{name: "topics", kind: kindNameList, required: true, names: topicNames},
		}, shareMemberConfigs...),
	},
	{
		name:       CmdSharePoll,
		usage:      "share-poll GROUP MEMBER [max=N]",
		positional: []argSpec{posIn("group", kindName, shareGroupNames), posIn("member", kindName, shareMemberNames)},
		named:      []argSpec{{name: "max", kind: kindCount, min: 1, max: MaxPollRecords}},
	},
	{
		name:  CmdAcknowledge,
		usage: "acknowledge GROUP MEMBER accept|release|reject|renew [TOPIC/PARTITION [offsets=N|N-M|N,M,...]]",
		positional: []argSpec{posIn("group", kindName, shareGroupNames), posIn("member", kindName, shareMemberNames),
			{name: "type", kind: kindChoice, choices: core.AckTypes()},
			{name: "topic/partition", kind: kindTopicPartition, optional: true, names: topicNames}},
		named: []argSpec{{name: "offsets", kind: kindText}},
		check: checkAck,
	},
	{
		name:       CmdShareLeave,
		usage:      "share-leave GROUP MEMBER",
		positional: []argSpec{posIn("group", kindName, shareGroupNames), posIn("member", kindName, shareMemberNames)},
	},
}

// maxAckOffsets bounds the offsets one acknowledge names.
const maxAckOffsets = MaxPollRecords

// ParseAckOffsets reads an acknowledge's offsets= list (3, 3-5,
// 3,5,7-9), as the command does.
func ParseAckOffsets(text string) ([]int64, error) { return parseOffsets(text) }

// parseOffsets reads an offsets= list: offsets and ranges N-M, comma
// separated, in order, each once.
func parseOffsets(text string) ([]int64, error) {
	var out []int64
	for _, part := range strings.Split(text, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.ParseInt(lo, 10, 64)
		if err != nil || a < 0 || lo != strconv.FormatInt(a, 10) {
			return nil, fmt.Errorf("expected offsets like 3, 3-5 or 3,5,7-9, got %q", text)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseInt(hi, 10, 64); err != nil || b < a || hi != strconv.FormatInt(b, 10) {
				return nil, fmt.Errorf("expected a range N-M with N ≤ M, got %q", part)
			}
		}
		if b-a >= maxAckOffsets || int64(len(out))+b-a >= maxAckOffsets {
			return nil, fmt.Errorf("one acknowledge names at most %d offsets", maxAckOffsets)
		}
		for o := a; o <= b; o++ {
			if len(out) > 0 && o <= out[len(out)-1] {
				return nil, fmt.Errorf("offsets= lists offsets in increasing order, each once; got %q", text)
			}
			out = append(out, o)
		}
	}
	return out, nil
}

func checkAck(c *Command) error {
	offs, ok := c.arg("offsets")
	if !ok {
		return nil
	}
	if c.Positional(3) == "" {
		return errAt(c, offs, "offsets= are a partition's: write acknowledge GROUP MEMBER TYPE TOPIC/PARTITION offsets=%s", offs.Value)
	}
	if _, err := parseOffsets(offs.Value); err != nil {
		return errAt(c, offs, "%v", err)
	}
	return nil
}

// shareCommand reports whether c is one the share groups take: a share
// group command, or crash or config group naming a share group.
func (w *world) shareCommand(c Command) bool {
	switch c.Name {
	case CmdShareJoin, CmdSharePoll, CmdAcknowledge, CmdShareLeave:
		return true
	case CmdCrash:
		return w.log.IsShareGroup(c.Positional(0))
	case CmdConfig:
		if c.Positional(0) != "group" {
			return false
		}
		return w.log.IsShareGroup(c.Positional(1)) || hasShareConfig(c)
	}
	return false
}

// hasShareConfig reports whether a config group line sets a share
// group's config.
func hasShareConfig(c Command) bool {
	for _, a := range c.Args[2:] {
		if _, ok := core.LookupShareConfig(core.OnShareGroup, a.Name); ok {
			return true
		}
	}
	return false
}

// applyShareCommand runs a share group command.
func (w *world) applyShareCommand(c Command) error {
	group, member := c.Positional(0), c.Positional(1)
	switch c.Name {
	case CmdShareJoin:
		topics, err := c.Names("topics")
		if err != nil {
			return err
		}
		opts := core.ShareJoinOptions{Topics: topics}
		opts.AckMode, _ = c.Value("share.acknowledgement.mode")
		n, err := c.CountOr("max.poll.records", 0)
		if err != nil {
			return err
		}
		opts.MaxPollRecords = int(n)
		return w.log.ShareJoin(group, member, opts)
	case CmdSharePoll:
		n, err := c.CountOr("max", 0) // 0: the member's max.poll.records
		if err != nil {
			return err
		}
		return w.sharePoll(group, member, int(n))
	case CmdAcknowledge:
		var tp core.TopicPartition
		var offsets []int64
		if c.Positional(3) != "" {
			topic, p, err := c.TopicPartitionAt(3)
			if err != nil {
				return err
			}
			tp = core.TopicPartition{Topic: topic, Partition: p}
			if text, ok := c.Value("offsets"); ok {
				if offsets, err = parseOffsets(text); err != nil {
					return err
				}
			}
		}
		if err := w.spend(int64(len(offsets))); err != nil {
			return err
		}
		return w.log.ShareAcknowledge(group, member, tp, offsets, c.Positional(2))
	case CmdShareLeave:
		if err := w.log.ShareLeave(group, member); err != nil {
			return err
		}
		w.stopConsumer(group, member)
		return nil
	case CmdCrash:
		if err := w.log.ShareCrash(group, member); err != nil {
			return err
		}
		w.stopConsumer(group, member)
		return nil
	case CmdConfig:
		name := c.Positional(1)
		if !w.log.IsShareGroup(name) {
			if _, err := w.log.Group(name); err == nil {
				return fmt.Errorf("group %s is a consumer group: the share.* configs are a share group's (Kafka refuses them on a consumer group's id: it is not a share group)", name)
			}
			return fmt.Errorf("unknown share group %q: share-join a member first (Kafka keeps a group's configs before the group exists; the playground keeps them with the group)", name)
		}
		var kvs [][2]string
		for _, a := range c.Args[2:] {
			if _, ok := core.LookupShareConfig(core.OnShareGroup, a.Name); !ok {
				return fmt.Errorf("%s is not a share group config: share group %s takes %s", a.Name, name, strings.Join(ShareGroupConfigNames(), ", "))
			}
			kvs = append(kvs, [2]string{a.Name, a.Value})
		}
		return w.log.SetShareGroupConfigs(name, kvs)
	}
	return &Error{Line: c.Line, Col: c.Col, Msg: "no way to apply " + c.Name}
}

// sharePoll polls a share group's member for at most max records (0: its
// max.poll.records), for share-poll and a consumer workload.
func (w *world) sharePoll(group, member string, max int) error {
	if err := w.spend(PollWork); err != nil {
		return err
	}
	got, err := w.log.SharePoll(group, member, max)
	if err != nil {
		return err
	}
	return w.spend(int64(len(got)))
}

// checkShareWorkload says why a consumer workload cannot poll a share
// group's member, or nil. A workload is a KafkaShareConsumer whose loop
// only polls: in implicit mode (Kafka's default) each poll accepts the
// records of the one before (ShareConsumerImpl, Kafka 4.4); an explicit
// member must acknowledge every record before its next poll, which a
// workload does not do.
func (w *world) checkShareWorkload(l workload) error {
	if l.commit {
		return fmt.Errorf("share group %s has no offsets to commit: its members acknowledge records, and a consumer workload's polls accept the records of the poll before; drop commit", l.group)
	}
	v, err := w.log.ShareGroup(l.group)
	if err != nil {
		return err
	}
	for _, m := range v.Members {
		if m.Name != l.member {
			continue
		}
		if m.CrashedAt >= 0 {
			return fmt.Errorf("member %s of share group %s crashed at %s", l.member, l.group, formatDuration(m.CrashedAt))
		}
		if m.AckMode == core.AckModeExplicit {
			return fmt.Errorf("member %s of share group %s acknowledges explicitly (share.acknowledgement.mode=explicit), and a consumer workload only polls: its polls would be refused until each record is acknowledged. Poll it with share-poll and acknowledge, or join a member in implicit mode", l.member, l.group)
		}
		return nil
	}
	return fmt.Errorf("share group %q has no member %q: share-join it first", l.group, l.member)
}

// configArgsForGroup are the configs config group takes: a consumer
// group's and a share group's.
func configArgsForGroup() []argSpec { return slices.Concat(groupConfigs, shareGroupConfigs) }
