// Package units reads and writes the playground's amounts: durations in
// milliseconds, sizes in bytes and rates, both in the canonical spelling of
// scripts and configs (the largest exact unit: 90s, 4KB, 20/s) and in words
// for people (1m 30s, 23.4 KB); and the small helpers of text for people,
// plurals and the edit distance behind "did you mean". It is pure: standard
// library only, no panics, the same output for the same input.
package units

import (
	"fmt"
	"strconv"
	"strings"
)

// Durations in milliseconds.
const (
	Millisecond int64 = 1
	Second            = 1000 * Millisecond
	Minute            = 60 * Second
	Hour              = 60 * Minute
	Day               = 24 * Hour
	Year              = 365 * Day
)

// MaxDurationMs bounds every duration, so that time arithmetic never
// overflows: 100 years of virtual time.
const MaxDurationMs = 100 * Year

// MaxSizeBytes bounds every size: 1 PiB is beyond any playground.
const MaxSizeBytes int64 = 1 << 50

// Unit is a suffix of an amount and how many base units (milliseconds or
// bytes) one of it is.
type Unit struct {
	Suffix string
	Size   int64
}

// Durations are the duration suffixes from the largest to the smallest, the
// order in which the canonical spelling picks a unit.
var Durations = []Unit{{"d", Day}, {"h", Hour}, {"m", Minute}, {"s", Second}, {"ms", Millisecond}}

// Sizes are the size suffixes, largest first; KB, MB and GB are binary
// (1024), as Kafka's own defaults (segment.bytes = 1 GiB) are.
var Sizes = []Unit{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}}

// ratePeriods are the periods a rate may be counted over: 20/s, 3/m, 1/h.
var ratePeriods = []Unit{{"ms", Millisecond}, {"s", Second}, {"m", Minute}, {"h", Hour}}

// Split splits "10s" into its leading digits "10" and the rest "s". A sign
// is not a digit.
func Split(text string) (digits, suffix string) {
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	return text[:i], text[i:]
}

// Lookup returns the size of the unit of us spelled suffix.
func Lookup(us []Unit, suffix string) (int64, bool) {
	for _, u := range us {
		if u.Suffix == suffix {
			return u.Size, true
		}
	}
	return 0, false
}

// Parse reads digits (15 at most) followed by one of the suffixes of us and
// returns the amount in base units. ok is false when the text has another
// form; tooBig is set when the amount exceeds max base units.
func Parse(text string, us []Unit, max int64) (n int64, ok, tooBig bool) {
	digits, suffix := Split(text)
	if digits == "" || len(digits) > 15 {
		return 0, false, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, false, false
	}
	size, found := Lookup(us, suffix)
	if !found {
		return 0, false, false
	}
	if n > max/size {
		return 0, true, true
	}
	return n * size, true, false
}

// Format writes n with the largest unit of us that divides it exactly:
// 600000 ms is 10m, 90000 ms is 90s, 1500 ms is 1500ms, 4096 bytes is 4KB.
// This is the canonical spelling of scripts and configs, which a link keeps
// forever. Zero is written as zero says (scripts write "0ms", configs a bare
// "0", the clock "0s"); a negative amount (Kafka's -1: unlimited, off) is
// written as a bare number.
func Format(n int64, us []Unit, zero string) string {
	if n == 0 {
		return zero
	}
	if n > 0 {
		for _, u := range us {
			if n%u.Size == 0 {
				return strconv.FormatInt(n/u.Size, 10) + u.Suffix
			}
		}
	}
	return strconv.FormatInt(n, 10)
}

// Duration writes milliseconds the way configs do: the largest exact unit
// (90000 → "90s", 7 days → "7d"), "0" and "-1" bare.
func Duration(ms int64) string { return Format(ms, Durations, "0") }

// Size writes bytes the way configs do: the largest exact unit (4096 →
// "4KB"), "0" and "-1" bare.
func Size(bytes int64) string { return Format(bytes, Sizes, "0") }

// MaxRatePerSecond bounds rates: at most this many records or polls per
// second of virtual time keep a playground readable.
const MaxRatePerSecond = 1000

// ParseRate reads a rate such as 20/s, 3/m or 1/h and returns the count and
// the period in milliseconds.
func ParseRate(text string) (count, perMs int64, err error) {
	bad := fmt.Errorf("expected a rate like 20/s, 3/m or 1/h, got %q", text)
	num, per, ok := strings.Cut(text, "/")
	if !ok {
		return 0, 0, bad
	}
	digits, rest := Split(num)
	if digits == "" || rest != "" || len(digits) > 19 {
		return 0, 0, bad
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n == 0 || n > 1_000_000 {
		return 0, 0, bad
	}
	size, found := Lookup(ratePeriods, per)
	if !found {
		return 0, 0, bad
	}
	if n*Second > MaxRatePerSecond*size {
		return 0, 0, fmt.Errorf("rate %s is faster than %d/s", text, MaxRatePerSecond)
	}
	return n, size, nil
}

// Rate writes count per perMs milliseconds with the period's unit: 20/s,
// 3/m, and 7/1500ms for a period that is not one unit.
func Rate(count, perMs int64) string {
	for _, u := range ratePeriods {
		if u.Size == perMs {
			return strconv.FormatInt(count, 10) + "/" + u.Suffix
		}
	}
	return strconv.FormatInt(count, 10) + "/" + strconv.FormatInt(perMs, 10) + "ms"
}

// spanUnits are the units of a span written for people.
var spanUnits = Durations[:4]

// Span writes a span of time for people, in words: "950ms" below a second,
// otherwise whole days, hours, minutes and seconds from its largest unit,
// `places` units of them (those that are zero left out, the smaller ones
// dropped): Span(90_000, 2) is "1m 30s", Span(187_200_000, 2) is "2d 4h".
func Span(ms int64, places int) string {
	if ms < Second {
		return strconv.FormatInt(ms, 10) + "ms"
	}
	var parts []string
	for i, u := range spanUnits {
		if len(parts) == 0 && ms < u.Size {
			continue
		}
		if n := ms / u.Size; n > 0 {
			parts = append(parts, strconv.FormatInt(n, 10)+u.Suffix)
		}
		ms %= u.Size
		if places--; places == 0 || i == len(spanUnits)-1 {
			break
		}
	}
	return strings.Join(parts, " ")
}

// SpanToSecond writes a span of time for people to the nearest second, in
// every unit: "39m", "6m 3s", "2h 5m"; "800ms" below a second.
func SpanToSecond(ms int64) string {
	if ms < Second {
		return Span(ms, len(spanUnits))
	}
	return Span((ms+Second/2)/Second*Second, len(spanUnits))
}

// ReadableSize writes a size for people: 512 B, 8 KB, 23.4 KB, 1.5 MB
// (whole kilobytes stay in KB: 2048 KB).
func ReadableSize(bytes int64) string {
	switch {
	case bytes < 1<<10:
		return fmt.Sprintf("%d B", bytes)
	case bytes%(1<<10) == 0:
		return fmt.Sprintf("%d KB", bytes>>10)
	case bytes < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(bytes)/(1<<10))
	}
	return fmt.Sprintf("%.1f MB", float64(bytes)/(1<<20))
}

// Plural writes a count with a noun: "1 record", "3 records", "0 records".
func Plural(n int64, noun string) string {
	return strconv.FormatInt(n, 10) + " " + Noun(n, noun, noun+"s")
}

// Join writes words as a sentence lists them: "a", "a and b", "a, b and
// c"; "" for none.
func Join(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// Noun returns one when n is 1 and many otherwise.
func Noun(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// maxEditRunes bounds the words EditDistance compares: a longer word is
// not a typo of a keyword or a name.
const maxEditRunes = 64

// EditDistance is the Damerau-Levenshtein distance (with adjacent swaps,
// each edit counted once) between a and b, counted in characters. Words
// longer than 64 characters are too far from anything: 1<<30.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > maxEditRunes || len(rb) > maxEditRunes {
		return 1 << 30
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
