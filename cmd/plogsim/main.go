// Command plogsim runs plog scenarios headless, on the same engine and
// Session as the playground page.
//
//	plogsim                    run the demo: keys and order, a group that commits
//	                           and resumes, two assignors, retention
//	plogsim run [flags] FILE   apply a scenario (FILE "-" reads standard input)
//	                           and print the state as Kafka's tools would
//	    --json                 print the state as JSON instead
//	    --events               print the event stream instead of the state
//	                           (with --json: a JSON array of events)
//	    --at N                 stop after the first N commands
//	    --link LINK            read the scenario from a link instead of FILE:
//	                           the page's address or its fragment (#v1.…&at=2),
//	                           as the page reads it; at= is the step to stop
//	                           after, the view's parameters are ignored
//	plogsim link FILE          print the link fragment of a scenario
//	plogsim lesson [LESSON]    list the lessons, show one (a name or a file), --check a solution
//	plogsim lesson check FILE  check a lesson file
//	plogsim picture FILE       write the SVG picture of a scenario at a step
//	    --at N, --link LINK    the step, or a link, as for run
//	    --title T              a heading for the picture
//	    --from A --to B        an animated SVG of steps A to B, each in turn
//	plogsim differences        how plog differs from Kafka, on purpose
//	plogsim kafka --brokers …  run a scenario on a real Kafka cluster and
//	                           compare it with the playground
//
// Errors go to standard error as FILE:LINE:COLUMN: message, and the exit
// status is 1 (2 for a misused command line).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"plog/core"
	"plog/core/lesson"
	"plog/core/scenario"
)

// command is one verb of plogsim: its name, the usage lines it adds to
// plogsim's usage, and what runs it. commands is the one table both the
// dispatcher and the usage read, so the usage names every command there is.
type command struct {
	name  string
	usage []string
	run   func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands []command

// usage is plogsim's usage, made from commands.
var usage string

func init() {
	commands = []command{
		{"run", []string{
			"plogsim run [--json] [--events] [--at N] FILE|-",
			"plogsim run [--json] [--events] [--at N] --link URL|'#v1.…'",
			"                             apply a scenario, print the state",
		}, runScenario},
		{"link", []string{"plogsim link FILE|-          print the link fragment of a scenario, or of a lesson file"}, printLink},
		{"lesson", []string{
			"plogsim lesson [NAME]        list the lessons, or show one",
			"plogsim lesson NAME --check FILE|-",
			"                             check a solution to a lesson",
			"plogsim lesson check FILE    check a lesson file you wrote",
		}, runLesson},
		{"picture", []string{
			"plogsim picture [--at N | --from A --to B] [--title T] FILE|-",
			"                             the SVG picture of a scenario at a step, or of steps in turn",
		}, drawPicture},
		{"differences", []string{"plogsim differences          how plog differs from Kafka, on purpose"}, printDifferences},
		{"kafka", []string{
			"plogsim kafka --brokers HOST:PORT FILE|-",
			"                             run a scenario on a real Kafka cluster",
		}, runKafka},
	}
	var b strings.Builder
	b.WriteString("usage:\n  plogsim                      run the demo\n")
	for _, c := range commands {
		for _, line := range c.usage {
			b.WriteString("  " + line + "\n")
		}
	}
	b.WriteString("  plogsim help                 print this usage\n")
	usage = b.String()
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole program, with its streams passed in so tests can drive
// it. It returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runDemo(stdout, stderr)
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "plogsim: unknown command %q\n%s", args[0], usage)
	return 2
}

// flagSet reports whether the command line set the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// parseFlags parses flags that may come before or after the positional
// arguments (plogsim run FILE --json reads as well as plogsim run --json FILE).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// source is a scenario's text and the name its errors are reported under.
type source struct {
	name, text string
}

// readSource reads FILE, or standard input for "-". It reads at most one
// byte beyond the largest script, so an endless input (/dev/zero, a pipe
// that never closes its end) is refused as too large rather than read
// until memory runs out.
func readSource(path string, stdin io.Reader) (source, error) {
	in := stdin
	if path == "-" {
		path = "<stdin>"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return source{}, err
		}
		defer f.Close()
		in = f
	}
	data, err := io.ReadAll(io.LimitReader(in, scenario.MaxScriptBytes+1))
	if err != nil {
		return source{}, err
	}
	if len(data) > scenario.MaxScriptBytes {
		return source{}, fmt.Errorf("%s: larger than %d bytes", path, scenario.MaxScriptBytes)
	}
	return source{name: path, text: string(data)}, nil
}

// report writes an error to stderr, as FILE:LINE:COLUMN: message when it
// has a position.
func report(stderr io.Writer, name string, err error) int {
	var perr *scenario.Error
	if errors.As(err, &perr) {
		fmt.Fprintf(stderr, "%s:%d:%d: %s\n", name, perr.Line, perr.Col, perr.Msg)
	} else {
		fmt.Fprintf(stderr, "plogsim: %v\n", err)
	}
	return 1
}

func runScenario(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plogsim run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the state as JSON")
	events := fs.Bool("events", false, "print the event stream instead of the state")
	at := fs.Int("at", -1, "stop after the first N commands")
	link := fs.String("link", "", "read the scenario from a link: a page's address or its fragment")
	files, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	src, code := chooseSource("plogsim run", usage, *link, files, stdin, stderr)
	if code != 0 {
		return code
	}
	// The state at the link's step, as the page opens it, unless --at
	// asks for another.
	if !src.stepAsked(fs, "plogsim run", at, stderr) {
		return 2
	}

	cmds, err := scenario.Parse(src.text)
	if err != nil {
		return report(stderr, src.name, err)
	}
	s := scenario.NewSession()
	var steps []step
	for _, c := range cmds {
		if *at >= 0 && s.Position() == *at && c.Name != scenario.CmdRules {
			break // --at counts the steps, as the page's at= does: the rules line is none
		}
		evs, err := s.ApplyCommand(c)
		if err != nil {
			return report(stderr, src.name, err)
		}
		steps = append(steps, step{line: c.Line, command: c.String(), events: evs})
	}
	if *at > s.Position() {
		// As the page says of a link's at= past the end.
		fmt.Fprintf(stderr, "plogsim run: step %d asked for, but the scenario has %d steps: the state after the last\n", *at, s.Position())
	}

	switch {
	case *events && *asJSON:
		return writeJSON(stdout, stderr, eventsJSON(steps))
	case *events:
		for _, st := range steps {
			fmt.Fprintf(stdout, "line %d: %s\n", st.line, st.command)
			for _, e := range st.events {
				fmt.Fprintf(stdout, "  %s\n", scenario.EventText(e))
			}
		}
	case *asJSON:
		data, err := scenario.StateJSON(s.Log())
		if err != nil {
			return report(stderr, "", err)
		}
		stdout.Write(data)
	default:
		fmt.Fprint(stdout, scenario.StateText(s.Log()))
	}
	return 0
}

// step is one applied command and what it did.
type step struct {
	line    int
	command string
	events  []core.Event
}

// eventJSON is one event in --events --json output.
type eventJSON struct {
	Line       int    `json:"line"`
	Command    string `json:"command"`
	Kind       string `json:"kind"`
	TimeMs     int64  `json:"time_ms"`
	Topic      string `json:"topic,omitempty"`
	Partition  *int   `json:"partition,omitempty"`
	Offset     *int64 `json:"offset,omitempty"`
	From       int64  `json:"from,omitempty"`
	To         int64  `json:"to,omitempty"`
	Count      int    `json:"count,omitempty"`
	Group      string `json:"group,omitempty"`
	Member     string `json:"member,omitempty"`
	Generation int    `json:"generation,omitempty"`
	Detail     string `json:"detail,omitempty"`
	// RolledActive: a segment-deleted event's segment was the active one,
	// and the log rolled a new active segment first.
	RolledActive bool `json:"rolled_active,omitempty"`
}

func eventsJSON(steps []step) []eventJSON {
	out := []eventJSON{}
	for _, st := range steps {
		for _, e := range st.events {
			ej := eventJSON{
				Line: st.line, Command: st.command, Kind: string(e.Kind), TimeMs: e.Time,
				Topic: e.Topic, From: e.From, To: e.To, Count: e.Count,
				Group: e.Group, Member: e.Member, Generation: e.Generation, Detail: e.Detail,
				RolledActive: e.RolledActive,
			}
			if e.Topic != "" {
				ej.Partition = &e.Partition
				ej.Offset = &e.Offset
			}
			out = append(out, ej)
		}
	}
	return out
}

func writeJSON(stdout, stderr io.Writer, v any) int {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return report(stderr, "", err)
	}
	stdout.Write(append(data, '\n'))
	return 0
}

func printLink(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "plogsim link: give one FILE (or -)\n%s", usage)
		return 2
	}
	src, err := readSource(args[0], stdin)
	if err != nil {
		return report(stderr, "", err)
	}
	if strings.HasSuffix(src.name, ".lesson") || lesson.IsFile(src.text) {
		// A lesson file's link opens the lesson on the page (#lesson=v1.…).
		link, err := lesson.EncodeLink(src.text)
		if err != nil {
			return report(stderr, src.name, err)
		}
		fmt.Fprintln(stdout, "#lesson="+link)
		return 0
	}
	link, err := scenario.EncodeLink(src.text)
	if err != nil {
		return report(stderr, src.name, err)
	}
	fmt.Fprintln(stdout, "#"+strings.TrimPrefix(link, "#"))
	return 0
}

// chooseSource reads the scenario a command names: one FILE (or - for
// stdin), or a link given with --link, which it reads as the page reads its
// address (readLink). A non-zero code is the exit status, after the
// problem has been written to stderr.
func chooseSource(command, usage, link string, files []string, stdin io.Reader, stderr io.Writer) (pageLink, int) {
	switch {
	case link != "" && len(files) == 0:
		l, err := readLink(link)
		if err != nil {
			return pageLink{}, report(stderr, "link", err)
		}
		return l, 0
	case link == "" && len(files) == 1:
		src, err := readSource(files[0], stdin)
		if err != nil {
			return pageLink{}, report(stderr, "", err)
		}
		return pageLink{source: src, at: -1}, 0
	}
	fmt.Fprintf(stderr, "%s: give one FILE (or -) or --link\n%s", command, usage)
	return pageLink{}, 2
}
