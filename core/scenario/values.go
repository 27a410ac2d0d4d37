package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core/units"
)

// This file reads and writes the typed values of the language: names,
// integers, durations, sizes, rates, topic/partition pairs and word lists.
// Each reader returns the canonical text of the value, so that a parsed
// command holds one spelling per value and Format(Parse(s)) is stable.

// maxDurationMs bounds every duration the language accepts: 100 years of
// virtual time, the same bound the engine puts on one clock advance.
const maxDurationMs = units.MaxDurationMs

// parseDuration reads a duration such as 500ms, 10s, 5m, 2h or 7d and returns
// it in milliseconds.
func parseDuration(text string) (int64, error) {
	ms, ok, tooBig := units.Parse(text, units.Durations, maxDurationMs)
	switch {
	case tooBig:
		return 0, fmt.Errorf("duration %s is longer than 100 years", text)
	case !ok:
		return 0, fmt.Errorf("expected a duration like 500ms, 10s, 5m, 2h or 7d, got %q", text)
	}
	return ms, nil
}

// formatDuration writes a duration in its canonical spelling, the largest
// exact unit (90s, 10m, 1500ms, 0ms): the text a link keeps.
func formatDuration(ms int64) string { return units.Format(ms, units.Durations, "0ms") }

// maxSizeBytes bounds sizes: 1 PiB is beyond any playground.
const maxSizeBytes = units.MaxSizeBytes

// parseSize reads a size such as 512B, 4KB, 1MB or 1GB and returns bytes.
func parseSize(text string) (int64, error) {
	b, ok, tooBig := units.Parse(text, units.Sizes, maxSizeBytes)
	switch {
	case tooBig:
		return 0, fmt.Errorf("size %s is larger than 1PB", text)
	case !ok:
		return 0, fmt.Errorf("expected a size like 512B, 4KB or 1MB, got %q", text)
	}
	return b, nil
}

// formatSize writes a size in its canonical spelling (4KB, 1500B, 0B).
func formatSize(bytes int64) string { return units.Format(bytes, units.Sizes, "0B") }

// parseCount reads a non-negative decimal integer no larger than max.
func parseCount(text string, max int64) (int64, error) {
	if text == "" || strings.TrimLeft(text, "0123456789") != "" || len(text) > 19 {
		return 0, fmt.Errorf("expected a whole number, got %q", text)
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n > max {
		return 0, fmt.Errorf("number %s is larger than %d", text, max)
	}
	return n, nil
}

// parseSigned reads a decimal integer that may be negative, within ±max.
func parseSigned(text string, max int64) (int64, error) {
	if rest, ok := strings.CutPrefix(text, "-"); ok {
		n, err := parseCount(rest, max)
		return -n, err
	}
	return parseCount(text, max)
}

// validName reports whether s is a legal topic, group, member or workload
// name. The characters are Kafka's legal topic characters; '/' is excluded,
// which lets "orders/0" name a partition without ambiguity.
func validName(s string) bool {
	if s == "" || len(s) > 249 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func parseName(text, what string) (string, error) {
	if !validName(text) {
		return "", fmt.Errorf("expected a %s name of letters, digits, '.', '_' or '-' (at most 249), got %q", what, text)
	}
	return text, nil
}

// maxPartitionNumber is the largest partition number the language accepts;
// the engine allows at most 1,000 partitions per topic.
const maxPartitionNumber = 999

// parseTopicPartition reads "orders/0".
func parseTopicPartition(text string) (topic string, partition int, err error) {
	topic, num, ok := strings.Cut(text, "/")
	if !ok || !validName(topic) {
		return "", 0, fmt.Errorf("expected a topic/partition like orders/0, got %q", text)
	}
	n, err := parseCount(num, maxPartitionNumber)
	if err != nil {
		return "", 0, fmt.Errorf("expected a topic/partition like orders/0, got %q", text)
	}
	return topic, int(n), nil
}

// parseNameList reads a comma-separated list of names, such as topics=a,b.
// The canonical form keeps the order given (it may matter) but refuses
// repeats.
func parseNameList(text, what string) ([]string, error) {
	parts := strings.Split(text, ",")
	seen := make(map[string]bool, len(parts))
	for _, p := range parts {
		if !validName(p) {
			return nil, fmt.Errorf("expected a comma-separated list of %s names like a,b, got %q", what, text)
		}
		if seen[p] {
			return nil, fmt.Errorf("%s %q is listed twice", what, p)
		}
		seen[p] = true
	}
	return parts, nil
}

// Rate is how often a workload acts: Count times per Per milliseconds.
type Rate struct {
	Count int64
	Per   int64
}

// parseRate reads a rate such as 20/s, 3/m or 1/h.
func parseRate(text string) (Rate, error) {
	count, per, err := units.ParseRate(text)
	if err != nil {
		return Rate{}, err
	}
	return Rate{Count: count, Per: per}, nil
}

func (r Rate) String() string { return units.Rate(r.Count, r.Per) }
