package kafkarun

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// configTrace records, on a kfake cluster, the group configs a run sets
// and describes, and answers the first two DescribeConfigs of a group after
// each change as a broker that has not replayed the change yet would:
// without the configs.
type configTrace struct {
	mu     sync.Mutex
	events []string
	stale  map[string]int // stale answers left, by group
}

func traceConfigs(c *kfake.Cluster) *configTrace {
	tr := &configTrace{stale: map[string]int{}}
	c.ControlKey(int16(kmsg.IncrementalAlterConfigs), func(req kmsg.Request) (kmsg.Response, error, bool) {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		for _, r := range req.(*kmsg.IncrementalAlterConfigsRequest).Resources {
			if r.ResourceType != kmsg.ConfigResourceTypeGroupConfig {
				continue
			}
			var sets []string
			for _, cfg := range r.Configs {
				if cfg.Op == kmsg.IncrementalAlterConfigOpDelete {
					sets = append(sets, "-"+cfg.Name)
				} else {
					sets = append(sets, cfg.Name+"="+*cfg.Value)
				}
			}
			tr.events = append(tr.events, "alter "+r.ResourceName+" "+strings.Join(sets, " "))
			tr.stale[r.ResourceName] = 2
		}
		return nil, nil, false
	})
	c.ControlKey(int16(kmsg.DescribeConfigs), func(req kmsg.Request) (kmsg.Response, error, bool) {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		r := req.(*kmsg.DescribeConfigsRequest)
		if len(r.Resources) != 1 || r.Resources[0].ResourceType != kmsg.ConfigResourceTypeGroupConfig {
			return nil, nil, false
		}
		name := r.Resources[0].ResourceName
		if tr.stale[name] == 0 {
			tr.events = append(tr.events, "describe "+name)
			return nil, nil, false
		}
		tr.stale[name]--
		tr.events = append(tr.events, "describe "+name+": not yet")
		c.KeepControl()
		resp := r.ResponseKind().(*kmsg.DescribeConfigsResponse)
		res := kmsg.NewDescribeConfigsResponseResource()
		res.ResourceType, res.ResourceName = r.Resources[0].ResourceType, name
		resp.Resources = append(resp.Resources, res)
		return resp, nil, true
	})
	return tr
}

// A share group's configs are set on the cluster, and the run goes on only
// once the broker describes them, then a barrier config written after them
// (group_configs.go): a broker that had not yet replayed a config answers
// without it, and the run asks again. The barrier's config is removed at
// the end, kept run or not.
func TestGroupConfigsAwaitTheBrokers(t *testing.T) {
	for _, keep := range []bool{false, true} {
		cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cluster.Close)
		tr := traceConfigs(cluster)
		opts := testOptions(cluster.ListenAddrs())
		opts.Prefix, opts.Keep = "p-", keep
		res := runOn(t, opts, `topic jobs partitions=1
share-join work a topics=jobs max.poll.records=3
config group work share.auto.offset.reset=earliest
produce jobs key=k value=v count=3
share-poll work a
`)
		// The member's first poll acquired the records from the log's
		// start, as share.auto.offset.reset=earliest asks.
		for _, row := range res.Comparison.Rows {
			if (row.What == "share work acquired" || row.What == "share work deliveries") && !row.Match {
				t.Errorf("keep %v: %s: playground %s, cluster %s", keep, row.What, row.Playground, row.Cluster)
			}
		}
		awaited := func(group, config string) []string {
			return []string{"alter " + group + " " + config, "describe " + group + ": not yet", "describe " + group + ": not yet", "describe " + group}
		}
		barrier := 0
		set := func(config string) []string {
			barrier++
			return append(awaited("p-work", config), awaited("p-plog:config-barrier", "share.auto.offset.reset="+[...]string{"latest", "earliest"}[barrier%2])...)
		}
		want := slices.Concat(set("share.record.lock.duration.ms="+shareClusterLockMs), set("share.heartbeat.interval.ms="+shareClusterHeartbeatMs),
			set("share.auto.offset.reset=earliest"), []string{"alter p-plog:config-barrier -share.auto.offset.reset"})
		if !keep {
			want = append(want, "alter p-work -share.auto.offset.reset -share.heartbeat.interval.ms -share.record.lock.duration.ms")
		}
		tr.mu.Lock()
		if !slices.Equal(tr.events, want) {
			t.Errorf("keep %v: the group configs went\n  %s\nwant\n  %s", keep, strings.Join(tr.events, "\n  "), strings.Join(want, "\n  "))
		}
		tr.mu.Unlock()
	}
}
