package units

import "testing"

func TestFormat(t *testing.T) {
	tests := []struct {
		name string
		n    int64
		us   []Unit
		zero string
		want string
	}{
		{"seconds", 90_000, Durations, "0ms", "90s"},
		{"minutes", 600_000, Durations, "0ms", "10m"},
		{"days", 7 * Day, Durations, "0ms", "7d"},
		{"milliseconds", 1500, Durations, "0ms", "1500ms"},
		{"zero in a script", 0, Durations, "0ms", "0ms"},
		{"zero in a config", 0, Durations, "0", "0"},
		{"minus one", -1, Durations, "0", "-1"},
		{"negative day", -Day, Durations, "0", "-86400000"},
		{"kilobytes", 4096, Sizes, "0B", "4KB"},
		{"gigabyte", 1 << 30, Sizes, "0B", "1GB"},
		{"bytes", 1500, Sizes, "0B", "1500B"},
		{"zero bytes", 0, Sizes, "0B", "0B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Format(tt.n, tt.us, tt.zero); got != tt.want {
				t.Errorf("Format(%d) = %q, want %q", tt.n, got, tt.want)
			}
		})
	}
	t.Run("config spellings", func(t *testing.T) {
		if got := Duration(0); got != "0" {
			t.Errorf("Duration(0) = %q, want 0", got)
		}
		if got := Duration(Hour); got != "1h" {
			t.Errorf("Duration(1h) = %q", got)
		}
		if got := Size(1 << 20); got != "1MB" {
			t.Errorf("Size(1MB) = %q", got)
		}
	})
}

func TestParse(t *testing.T) {
	tests := []struct {
		name       string
		text       string
		us         []Unit
		max        int64
		want       int64
		ok, tooBig bool
	}{
		{"seconds", "10s", Durations, MaxDurationMs, 10_000, true, false},
		{"milliseconds", "500ms", Durations, MaxDurationMs, 500, true, false},
		{"days", "7d", Durations, MaxDurationMs, 7 * Day, true, false},
		{"zero", "0ms", Durations, MaxDurationMs, 0, true, false},
		{"no unit", "10", Durations, MaxDurationMs, 0, false, false},
		{"no digits", "s", Durations, MaxDurationMs, 0, false, false},
		{"unknown unit", "10w", Durations, MaxDurationMs, 0, false, false},
		{"sign", "-10s", Durations, MaxDurationMs, 0, false, false},
		{"size unit on a duration", "4KB", Durations, MaxDurationMs, 0, false, false},
		{"kilobytes", "4KB", Sizes, MaxSizeBytes, 4096, true, false},
		{"case matters", "4kb", Sizes, MaxSizeBytes, 0, false, false},
		{"too long", "36501d", Durations, MaxDurationMs, 0, true, true},
		{"longest", "36500d", Durations, MaxDurationMs, MaxDurationMs, true, false},
		{"sixteen digits", "1234567890123456ms", Durations, MaxDurationMs, 0, false, false},
		{"too big", "2000000GB", Sizes, MaxSizeBytes, 0, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, ok, tooBig := Parse(tt.text, tt.us, tt.max)
			if n != tt.want || ok != tt.ok || tooBig != tt.tooBig {
				t.Errorf("Parse(%q) = %d, %v, %v; want %d, %v, %v", tt.text, n, ok, tooBig, tt.want, tt.ok, tt.tooBig)
			}
		})
	}
}

func TestRate(t *testing.T) {
	tests := []struct {
		name         string
		text         string
		count, perMs int64
		err          string
		written      string
	}{
		{"per second", "20/s", 20, Second, "", "20/s"},
		{"per minute", "3/m", 3, Minute, "", "3/m"},
		{"per hour", "1/h", 1, Hour, "", "1/h"},
		{"per millisecond", "1/ms", 1, 1, "", "1/ms"},
		{"leading zeros", "007/s", 7, Second, "", "7/s"},
		{"too fast", "1001/s", 0, 0, "rate 1001/s is faster than 1000/s", ""},
		{"zero", "0/s", 0, 0, `expected a rate like 20/s, 3/m or 1/h, got "0/s"`, ""},
		{"no period", "20", 0, 0, `expected a rate like 20/s, 3/m or 1/h, got "20"`, ""},
		{"per day", "1/d", 0, 0, `expected a rate like 20/s, 3/m or 1/h, got "1/d"`, ""},
		{"negative", "-1/s", 0, 0, `expected a rate like 20/s, 3/m or 1/h, got "-1/s"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			count, perMs, err := ParseRate(tt.text)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("ParseRate(%q) error = %v, want %q", tt.text, err, tt.err)
				}
				return
			}
			if err != nil || count != tt.count || perMs != tt.perMs {
				t.Fatalf("ParseRate(%q) = %d, %d, %v; want %d, %d", tt.text, count, perMs, err, tt.count, tt.perMs)
			}
			if got := Rate(count, perMs); got != tt.written {
				t.Errorf("Rate(%d, %d) = %q, want %q", count, perMs, got, tt.written)
			}
		})
	}
	t.Run("odd period", func(t *testing.T) {
		if got := Rate(7, 1500); got != "7/1500ms" {
			t.Errorf("Rate(7, 1500) = %q", got)
		}
	})
}

// TestForPeople checks the writers of words for people: spans of time,
// sizes and plurals.
func TestForPeople(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"span below a second", Span(950, 2), "950ms"},
		{"span of seconds", Span(42_000, 2), "42s"},
		{"span of a minute and a half", Span(90_000, 2), "1m 30s"},
		{"span drops milliseconds", Span(90_500, 2), "1m 30s"},
		{"span to two places", Span(4*Minute+55*Second, 2), "4m 55s"},
		{"span of days and hours", Span(2*Day+4*Hour+5*Minute, 2), "2d 4h"},
		{"span with zero hours", Span(2*Day+5*Minute, 2), "2d"},
		{"span to every place", Span(2*Day+5*Minute+3*Second, 4), "2d 5m 3s"},
		{"span to one place", Span(90_000, 1), "1m"},
		{"negative span", Span(-5, 2), "-5ms"},
		{"to the second below a second", SpanToSecond(800), "800ms"},
		{"to the second rounds up", SpanToSecond(1500), "2s"},
		{"to the second rounds down", SpanToSecond(1499), "1s"},
		{"to the second in minutes", SpanToSecond(39 * Minute), "39m"},
		{"to the second in minutes and seconds", SpanToSecond(6*Minute + 3*Second), "6m 3s"},
		{"to the second in hours and minutes", SpanToSecond(2*Hour + 5*Minute + 200), "2h 5m"},
		{"to the second rounds into the minute", SpanToSecond(59_600), "1m"},
		{"size in bytes", ReadableSize(512), "512 B"},
		{"size in whole kilobytes", ReadableSize(8 << 10), "8 KB"},
		{"size in kilobytes", ReadableSize(23_962), "23.4 KB"},
		{"whole megabytes in kilobytes", ReadableSize(2 << 20), "2048 KB"},
		{"size in megabytes", ReadableSize(1<<20 + 600<<10 + 1), "1.6 MB"},
		{"plural of one", Plural(1, "record"), "1 record"},
		{"plural of many", Plural(3, "record"), "3 records"},
		{"plural of none", Plural(0, "partition"), "0 partitions"},
		{"plural of a phrase", Plural(2, "acknowledged record"), "2 acknowledged records"},
		{"irregular noun of one", Noun(1, "it", "them"), "it"},
		{"irregular noun of many", Noun(2, "it", "them"), "them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want int
	}{
		{"same", "produce", "produce", 0},
		{"one substitution", "produce", "prodice", 1},
		{"one insertion", "produce", "producer", 1},
		{"one deletion", "produce", "prduce", 1},
		{"adjacent swap", "produce", "rpoduce", 1},
		{"empty", "", "abc", 3},
		{"characters, not bytes", "héllo", "hello", 1},
		{"kitten", "kitten", "sitting", 3},
		{"too long", string(make([]byte, 65)), "a", 1 << 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EditDistance(tt.a, tt.b); got != tt.want {
				t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
		})
	}
}
