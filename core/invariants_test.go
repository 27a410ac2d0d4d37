package core

import (
	"fmt"
	"math"
	"strconv"
)

// shadow remembers every record produced and every watermark seen, so that
// checkInvariants can tell whether the engine changed what it must not.
type shadow struct {
	produced   map[string]map[int64]Record // "topic/partition" → offset → record as produced
	sequence   map[string]map[int64]int    // "topic/partition" → offset → how many produces came before
	produces   int
	highWater  map[string]int64
	logStart   map[string]int64
	compacting map[string]bool // topics that ever had compact in their policy
}

func newShadow() *shadow {
	return &shadow{
		produced:   map[string]map[int64]Record{},
		sequence:   map[string]map[int64]int{},
		highWater:  map[string]int64{},
		logStart:   map[string]int64{},
		compacting: map[string]bool{},
	}
}

func partitionName(topicName string, partition int) string {
	return topicName + "/" + strconv.Itoa(partition)
}

// noteTopic records a topic's policy after it was created or changed.
func (s *shadow) noteTopic(l *PartitionedLog, topicName string) {
	if config, err := l.TopicConfig(topicName); err == nil && config.Compacts() {
		s.compacting[topicName] = true
	}
}

// noteProduce checks a successful produce and remembers its record.
func (s *shadow) noteProduce(l *PartitionedLog, req ProduceRequest, res ProduceResult, partitionsBefore int) error {
	name := partitionName(res.Topic, res.Partition)
	if res.Offset != s.highWater[name] {
		return fmt.Errorf("%s: produced at offset %d, want the high watermark %d", name, res.Offset, s.highWater[name])
	}
	if req.Partition >= 0 && res.Partition != req.Partition {
		return fmt.Errorf("explicit partition %d, got %d", req.Partition, res.Partition)
	}
	if req.Partition < 0 && req.HasKey && res.Partition != PartitionFor(req.Key, partitionsBefore) {
		return fmt.Errorf("key %q went to %d, PartitionFor says %d", req.Key, res.Partition, PartitionFor(req.Key, partitionsBefore))
	}
	if s.produced[name] == nil {
		s.produced[name] = map[int64]Record{}
		s.sequence[name] = map[int64]int{}
	}
	s.sequence[name][res.Offset] = s.produces
	s.produces++
	key := req.Key
	if !req.HasKey {
		key = ""
	}
	s.produced[name][res.Offset] = Record{Offset: res.Offset, Timestamp: l.Now(), Key: key, Value: req.Value, HasKey: req.HasKey, Tombstone: req.Tombstone}
	return nil
}

// checkInvariants checks what must hold after any operation:
//   - the high watermark and the log start offset never decrease, and the log
//     start is at most the high watermark;
//   - each key's records in a partition are in the order they were produced;
//   - retained records are in strictly increasing offset order within
//     [log start, high watermark), each exactly as produced at that offset
//     (so truncation, retention and compaction never change a survivor's
//     offset, and each key's records keep their order in a partition);
//   - a partition that was never compacted holds every offset from its log
//     start to its high watermark;
//   - the newest record of each key at or after the log start is retained,
//     unless it is a tombstone: compaction never loses a key's value;
//   - the segments cover the records, in order.
func (s *shadow) checkInvariants(l *PartitionedLog) error {
	for _, topicName := range l.topicNames {
		t := l.topics[topicName]
		for i, p := range t.partitions {
			name := partitionName(topicName, i)
			if p.next < s.highWater[name] {
				return fmt.Errorf("%s: high watermark went down from %d to %d", name, s.highWater[name], p.next)
			}
			if p.logStart < s.logStart[name] {
				return fmt.Errorf("%s: log start went down from %d to %d", name, s.logStart[name], p.logStart)
			}
			if p.logStart > p.next {
				return fmt.Errorf("%s: log start %d above the high watermark %d", name, p.logStart, p.next)
			}
			s.highWater[name], s.logStart[name] = p.next, p.logStart
			lastOfKey := map[string]int{}
			records := p.records.all()
			for j, r := range records {
				if seq, seen := lastOfKey[r.Key]; r.HasKey && seen && s.sequence[name][r.Offset] < seq {
					return fmt.Errorf("%s: key %q: offset %d was produced before the record ahead of it", name, r.Key, r.Offset)
				}
				lastOfKey[r.Key] = s.sequence[name][r.Offset]
				if r.Offset < p.logStart || r.Offset >= p.next {
					return fmt.Errorf("%s: record at %d outside [%d, %d)", name, r.Offset, p.logStart, p.next)
				}
				if j > 0 && r.Offset <= records[j-1].Offset {
					return fmt.Errorf("%s: offset %d after %d", name, r.Offset, records[j-1].Offset)
				}
				if want, ok := s.produced[name][r.Offset]; !ok || want != r {
					return fmt.Errorf("%s: record %+v, produced as %+v", name, r, want)
				}
			}
			if !s.compacting[topicName] && int64(len(records)) != p.next-p.logStart {
				return fmt.Errorf("%s: %d records between log start %d and high watermark %d: offsets are not contiguous", name, len(records), p.logStart, p.next)
			}
			if err := s.checkLatestPerKey(name, p); err != nil {
				return err
			}
			if err := checkSegments(p); err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
		}
	}
	return nil
}

func (s *shadow) checkLatestPerKey(name string, p *partition) error {
	latest := map[string]Record{}
	for offset, r := range s.produced[name] {
		if r.HasKey && offset >= p.logStart && offset >= latest[r.Key].Offset {
			latest[r.Key] = r
		}
	}
	for key, r := range latest {
		if r.Tombstone {
			continue
		}
		if got, ok := p.records.first(r.Offset); !ok || got != r {
			return fmt.Errorf("%s: the newest record of key %q, at offset %d, is gone", name, key, r.Offset)
		}
	}
	return nil
}

func checkSegments(p *partition) error {
	if len(p.segments) == 0 {
		return fmt.Errorf("no segments")
	}
	counted := 0
	for i, seg := range p.segments {
		end := p.segmentEnd(i)
		if seg.base > end {
			return fmt.Errorf("segment %d: base %d after its end %d", i, seg.base, end)
		}
		counted += p.segmentCount(i)
	}
	if first, ok := p.records.first(math.MinInt64); ok && first.Offset < p.segments[0].base {
		return fmt.Errorf("record %d before the first segment at %d", first.Offset, p.segments[0].base)
	}
	if counted != p.records.len() {
		return fmt.Errorf("segments count %d records, partition holds %d", counted, p.records.len())
	}
	return checkRecordLog(&p.records)
}
