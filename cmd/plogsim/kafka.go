package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"plog/core/scenario"
	"plog/kafkarun"
)

const kafkaUsage = `usage:
  plogsim kafka --brokers HOST:PORT[,...] [flags] FILE|-
  plogsim kafka --brokers HOST:PORT[,...] [flags] --link URL|'#v1.…'

Runs the scenario on a real Kafka (or Kafka-compatible) cluster, prints the
cluster's state as plogsim run does, then the playground's prediction beside
it. Exit status 0 when they agree (but for differences with a reason), 1 when
something differs that should not or the run fails, 2 for a misused command.

Named producers (producer-config) are franz-go clients with their configs;
their transactions run as Kafka 4's (KIP-890: the epoch moves on at every
commit and abort), read_committed groups fetch below the last stable offset,
and markers, last stable offsets and epochs are compared. A wire fault on a
produce of one record is made by the producer's own connections (the request
or its answer is lost, the client retries); others are not made, and what
they changed differs with its reason.

flags:
  --brokers LIST        bootstrap brokers, HOST:PORT separated by commas
  --prefix P            prefix of the run's topics and group ids (default plog-<random>-)
  --keep                leave the topics and groups on the cluster afterwards
  --json                print cluster, playground and comparison as JSON
  --timeout D           longest wait for a group to settle or a poll to fill (default 15s);
                        a command gets 3 times it on the cluster, the cleanup twice it
  --dial-timeout D      longest wait to connect to a broker (default 5s)
  --tls                 connect over TLS
  --sasl-mechanism M    plain, scram-sha-256 or scram-sha-512
  --sasl-user U         the SASL user; the password is read from $PLOGSIM_SASL_PASSWORD
`

// kafkaJSON is what plogsim kafka --json prints.
type kafkaJSON struct {
	Brokers    []string            `json:"brokers"`
	Prefix     string              `json:"prefix"`
	Kept       bool                `json:"kept"`
	Cluster    scenario.State      `json:"cluster"`
	Playground scenario.State      `json:"playground"`
	Comparison kafkarun.Comparison `json:"comparison"`
	OK         bool                `json:"ok"`
}

func runKafka(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plogsim kafka", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, kafkaUsage) }
	brokers := fs.String("brokers", "", "bootstrap brokers")
	prefix := fs.String("prefix", "", "prefix of topics and group ids")
	keep := fs.Bool("keep", false, "keep topics and groups")
	asJSON := fs.Bool("json", false, "print JSON")
	link := fs.String("link", "", "read the scenario from a link: a page's address or its fragment")
	timeout := fs.Duration("timeout", 15*time.Second, "longest wait on the cluster")
	dialTimeout := fs.Duration("dial-timeout", 5*time.Second, "longest wait to connect")
	useTLS := fs.Bool("tls", false, "connect over TLS")
	mechanism := fs.String("sasl-mechanism", "", "SASL mechanism")
	user := fs.String("sasl-user", "", "SASL user")
	files, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	if *brokers == "" {
		fmt.Fprintf(stderr, "plogsim kafka: give --brokers HOST:PORT\n%s", kafkaUsage)
		return 2
	}
	src, code := chooseSource("plogsim kafka", kafkaUsage, *link, files, stdin, stderr)
	if code != 0 {
		return code
	}
	var whole []string
	if src.at >= 0 {
		whole = append(whole, fmt.Sprintf("at=%d (the run takes the whole scenario)", src.at))
	}
	src.note(stderr, "plogsim kafka", whole...)

	opts := kafkarun.Options{
		Prefix:      *prefix,
		Keep:        *keep,
		WaitTimeout: *timeout,
		DialTimeout: *dialTimeout,
	}
	for _, b := range strings.Split(*brokers, ",") {
		if b = strings.TrimSpace(b); b != "" {
			opts.Brokers = append(opts.Brokers, b)
		}
	}
	if *useTLS {
		opts.ClientOpts = append(opts.ClientOpts, kafkarun.TLS())
	}
	if *mechanism != "" || *user != "" {
		auth, err := kafkarun.SASL(*mechanism, *user, os.Getenv("PLOGSIM_SASL_PASSWORD"))
		if err != nil {
			fmt.Fprintf(stderr, "plogsim kafka: %v\n", err)
			return 2
		}
		opts.ClientOpts = append(opts.ClientOpts, auth)
	}

	// Ctrl-C and SIGTERM stop the run; Run then deletes what it created,
	// on deadlines of its own. A second signal quits at once, as it would
	// without this handler.
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	go func() {
		select {
		case sig := <-signals:
			signal.Stop(signals)
			fmt.Fprintf(stderr, "plogsim kafka: %v: stopping the run and deleting what it created (at most %s; again to quit at once)\n", sig, 2**timeout)
			cancel(fmt.Errorf("interrupted by %v", sig))
		case <-ctx.Done():
		}
	}()
	res, err := kafkarun.Run(ctx, src.text, opts)
	if err != nil {
		return report(stderr, src.name, err)
	}
	ok := res.Comparison.OK()
	if *asJSON {
		if code := writeJSON(stdout, stderr, kafkaJSON{
			Brokers: opts.Brokers, Prefix: res.Prefix, Kept: res.Kept,
			Cluster: res.Cluster, Playground: res.Prediction, Comparison: res.Comparison, OK: ok,
		}); code != 0 {
			return code
		}
	} else {
		fate := "deleted after the run"
		if res.Kept {
			fate = "kept"
		}
		fmt.Fprintf(stdout, "# the cluster at %s (topics and groups prefixed %s, %s)\n\n", strings.Join(opts.Brokers, ","), res.Prefix, fate)
		fmt.Fprint(stdout, res.Cluster.Text())
		fmt.Fprint(stdout, "\n# the playground's prediction beside the cluster\n\n")
		fmt.Fprint(stdout, res.Comparison.Text())
	}
	if !ok {
		return 1
	}
	return 0
}
