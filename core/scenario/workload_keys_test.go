package scenario

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// producedKeys loads a script and returns the keys of topic t's records,
// partition by partition.
func producedKeys(t *testing.T, script string) []string {
	t.Helper()
	s, err := Load(script)
	if err != nil {
		t.Fatalf("%v\n%s", err, script)
	}
	var keys []string
	for _, tp := range Snapshot(s.Log()).Topics {
		for _, p := range tp.Partitions {
			for _, r := range p.Records {
				if r.Key == nil {
					t.Fatalf("a record without a key at %s/%d@%d", tp.Name, p.Partition, r.Offset)
				}
				keys = append(keys, *r.Key)
			}
		}
	}
	return keys
}

// A workload's key list and key pattern name the keys its mode draws, and
// nothing else: the draws are those of the numbered keys key-N of the same
// keyspace, so a list's i-th key stands where key-i stood, and a pattern's
// {n} holds the number key-N held. Partitions follow the keys, so the
// comparison is of the keys in the order the records were written.
func TestWorkloadKeysNameTheDrawsOfNumberedKeys(t *testing.T) {
	list := []string{"acct-7", "acct-3", "acct-9", "acct-1"}
	for _, tc := range []struct {
		name             string
		numbered, custom string
		rename           func(key string) string
	}{
		{"uniform list", "keys=uniform keyspace=4", "keys=uniform keylist=" + strings.Join(list, ","), listKey(list)},
		{"zipf list", "keys=zipf keyspace=4 exponent=1.2", "keys=zipf exponent=1.2 keylist=" + strings.Join(list, ","), listKey(list)},
		{"sequence list", "keys=sequence", "keys=sequence keylist=" + strings.Join(list, ","), func(k string) string {
			n, _ := strconv.Atoi(strings.TrimPrefix(k, "key-"))
			return list[n%len(list)]
		}},
		{"uniform pattern", "keys=uniform keyspace=30", "keys=uniform keyspace=30 key=tenant-{n}", patternKey("tenant-", "")},
		{"zipf pattern", "keys=zipf keyspace=30 exponent=2", "keys=zipf keyspace=30 exponent=2 key={n}.eu", patternKey("", ".eu")},
		{"sequence pattern", "keys=sequence", "keys=sequence key=t{n}x", patternKey("t", "x")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One partition keeps the records in the order they were made.
			script := "seed 11\ntopic t partitions=1\nproducer p t rate=50/s %s\nadvance 2s\n"
			numbered := producedKeys(t, strings.Replace(script, "%s", tc.numbered, 1))
			custom := producedKeys(t, strings.Replace(script, "%s", tc.custom, 1))
			if len(numbered) != 100 {
				t.Fatalf("%d records, want 100", len(numbered))
			}
			want := make([]string, len(numbered))
			for i, k := range numbered {
				want[i] = tc.rename(k)
			}
			if !slices.Equal(custom, want) {
				t.Errorf("keys %q,\nwant %q", custom, want)
			}
			again := producedKeys(t, strings.Replace(script, "%s", tc.custom, 1))
			if !slices.Equal(custom, again) {
				t.Errorf("the same seed gave other keys: %q then %q", custom, again)
			}
		})
	}
}

func listKey(list []string) func(string) string {
	return func(k string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(k, "key-"))
		return list[n]
	}
}

func patternKey(prefix, suffix string) func(string) string {
	return func(k string) string { return prefix + strings.TrimPrefix(k, "key-") + suffix }
}

// A zipf workload over a list makes its first key the hottest, and draws
// every key of the list given time; a uniform one draws each.
func TestWorkloadKeyListIsTheKeyspace(t *testing.T) {
	for _, mode := range []string{"keys=zipf exponent=1", "keys=uniform"} {
		keys := producedKeys(t, "seed 3\ntopic t partitions=3\nproducer p t rate=100/s "+mode+" keylist=hot,warm,cold\nadvance 10s\n")
		counts := map[string]int{}
		for _, k := range keys {
			counts[k]++
		}
		if len(counts) != 3 || counts["hot"] == 0 || counts["warm"] == 0 || counts["cold"] == 0 {
			t.Errorf("%s: keys %v, want hot, warm and cold only", mode, counts)
		}
		if strings.HasPrefix(mode, "keys=zipf") && (counts["hot"] <= counts["warm"] || counts["warm"] <= counts["cold"]) {
			t.Errorf("%s: %v, want hot above warm above cold", mode, counts)
		}
	}
}

// A workload without keylist= or key= keeps its keys key-N, so the links
// made before them replay as they were made.
func TestWorkloadKeysStayKeyNByDefault(t *testing.T) {
	for _, mode := range []string{"keys=sequence", "keys=uniform keyspace=5", "keys=zipf keyspace=5 exponent=1"} {
		for _, k := range producedKeys(t, "topic t partitions=2\nproducer p t rate=10/s "+mode+"\nadvance 2s\n") {
			if _, err := strconv.Atoi(strings.TrimPrefix(k, "key-")); err != nil || !strings.HasPrefix(k, "key-") {
				t.Errorf("%s: key %q, want key-N", mode, k)
			}
		}
	}
}

// A zipf workload's table is of its list's keys: the budget counts them,
// as it counts keyspace=.
func TestWorkloadKeyListZipfTableIsTheListsSize(t *testing.T) {
	s, err := Load("topic t\nproducer p t rate=1/s keys=zipf exponent=1 keylist=a,b,c\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.cur.tables; got != 3*zipfRankBytes {
		t.Errorf("tables %d bytes, want %d", got, 3*zipfRankBytes)
	}
}
