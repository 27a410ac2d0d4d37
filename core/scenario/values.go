package scenario

import (
	"fmt"
	"strconv"
	"strings"
)

// This file reads and writes the typed values of the language: names,
// integers, durations, sizes, rates, topic/partition pairs and word lists.
// Each reader returns the canonical text of the value, so that a parsed
// command holds one spelling per value and Format(Parse(s)) is stable.

// maxDurationMs bounds every duration the language accepts: 100 years of
// virtual time, the same bound the engine puts on one clock advance.
const maxDurationMs = 100 * 365 * 24 * 3600 * 1000

// unit is a suffix of an amount and how many base units (ms or bytes) it is.
type unit struct {
	suffix string
	size   int64
}

// durationUnits lists the duration suffixes from the largest to the smallest,
// the order in which the canonical form picks a unit.
var durationUnits = []unit{
	{"d", 24 * 3600 * 1000},
	{"h", 3600 * 1000},
	{"m", 60 * 1000},
	{"s", 1000},
	{"ms", 1},
}

// sizeUnits are the size suffixes; KB, MB and GB are binary (1024), as
// Kafka's own defaults (segment.bytes = 1 GiB) are.
var sizeUnits = []unit{
	{"GB", 1 << 30},
	{"MB", 1 << 20},
	{"KB", 1 << 10},
	{"B", 1},
}

// parseAmount reads digits followed by one of units and returns the amount
// in base units. ok is false when the text has another form; tooBig is set
// when the amount exceeds max base units.
func parseAmount(text string, units []unit, max int64) (n int64, ok, tooBig bool) {
	digits := len(text) - len(strings.TrimLeft(text, "0123456789"))
	if digits == 0 || digits > 15 {
		return 0, false, false
	}
	n, err := strconv.ParseInt(text[:digits], 10, 64)
	if err != nil {
		return 0, false, false
	}
	for _, u := range units {
		if text[digits:] == u.suffix {
			if n > max/u.size {
				return 0, true, true
			}
			return n * u.size, true, false
		}
	}
	return 0, false, false
}

// formatAmount writes n with the largest unit that divides it exactly:
// 600000 ms is 10m, 90000 ms is 90s, 1500 ms is 1500ms.
func formatAmount(n int64, units []unit) string {
	smallest := units[len(units)-1]
	if n == 0 {
		return "0" + smallest.suffix
	}
	for _, u := range units {
		if n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10) + smallest.suffix
}

// parseDuration reads a duration such as 500ms, 10s, 5m, 2h or 7d and returns
// it in milliseconds.
func parseDuration(text string) (int64, error) {
	ms, ok, tooBig := parseAmount(text, durationUnits, maxDurationMs)
	switch {
	case tooBig:
		return 0, fmt.Errorf("duration %s is longer than 100 years", text)
	case !ok:
		return 0, fmt.Errorf("expected a duration like 500ms, 10s, 5m, 2h or 7d, got %q", text)
	}
	return ms, nil
}

func formatDuration(ms int64) string { return formatAmount(ms, durationUnits) }

// maxSizeBytes bounds sizes: 1 PiB is beyond any playground.
const maxSizeBytes = 1 << 50

// parseSize reads a size such as 512B, 4KB, 1MB or 1GB and returns bytes.
func parseSize(text string) (int64, error) {
	b, ok, tooBig := parseAmount(text, sizeUnits, maxSizeBytes)
	switch {
	case tooBig:
		return 0, fmt.Errorf("size %s is larger than 1PB", text)
	case !ok:
		return 0, fmt.Errorf("expected a size like 512B, 4KB or 1MB, got %q", text)
	}
	return b, nil
}

func formatSize(bytes int64) string { return formatAmount(bytes, sizeUnits) }

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

// maxRatePerSecond bounds workload rates; at most this many records or
// polls per second of virtual time keep a playground readable.
const maxRatePerSecond = 1000

var rateUnits = []unit{
	{"ms", 1},
	{"s", 1000},
	{"m", 60 * 1000},
	{"h", 3600 * 1000},
}

// parseRate reads a rate such as 20/s, 3/m or 1/h.
func parseRate(text string) (Rate, error) {
	bad := fmt.Errorf("expected a rate like 20/s, 3/m or 1/h, got %q", text)
	num, per, ok := strings.Cut(text, "/")
	if !ok {
		return Rate{}, bad
	}
	n, err := parseCount(num, 1_000_000)
	if err != nil || n == 0 {
		return Rate{}, bad
	}
	for _, u := range rateUnits {
		if per == u.suffix {
			if n*1000 > maxRatePerSecond*u.size {
				return Rate{}, fmt.Errorf("rate %s is faster than %d/s", text, maxRatePerSecond)
			}
			return Rate{Count: n, Per: u.size}, nil
		}
	}
	return Rate{}, bad
}

func (r Rate) String() string {
	for _, u := range rateUnits {
		if u.size == r.Per {
			return strconv.FormatInt(r.Count, 10) + "/" + u.suffix
		}
	}
	return strconv.FormatInt(r.Count, 10) + "/" + strconv.FormatInt(r.Per, 10) + "ms"
}
