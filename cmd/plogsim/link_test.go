package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"plog/core/lesson"
	"plog/core/scenario"
)

// linkOf is the link (v1.…, without '#') of a script.
func linkOf(t *testing.T, script string) string {
	t.Helper()
	link, err := scenario.EncodeLink(script)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(link, "#")
}

// --link takes whatever the page opens: a whole address, a fragment with
// or without '#', with the page's parameters, and lessons' links; it
// follows at= and names what it ignores.
func TestReadLinkTakesWhatThePageTakes(t *testing.T) {
	link := linkOf(t, script)
	text, err := scenario.DecodeLink(link)
	if err != nil {
		t.Fatal(err)
	}
	keyOrder, err := lesson.Find("key-order")
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile("../../core/lesson/files/02-offsets.lesson")
	if err != nil {
		t.Fatal(err)
	}
	lessonLink, err := lesson.EncodeLink(string(file))
	if err != nil {
		t.Fatal(err)
	}
	offsets, _, err := lesson.DecodeLink(lessonLink)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, arg  string
		wantSource source
		wantAt     int
		ignored    []string
		problem    string
	}{
		{"bare link", link, source{"link", text}, -1, nil, ""},
		{"fragment", "#" + link, source{"link", text}, -1, nil, ""},
		{"from the address bar", "#" + link + "&at=2", source{"link", text}, 2, nil, ""},
		{"without its '#'", link + "&at=2", source{"link", text}, 2, nil, ""},
		{"pasted with a new line", "  #" + link + "\n", source{"link", text}, -1, nil, ""},
		{"whole address under a sub-path", "http://host/sub/path/#" + link + "&embed=1", source{"link", text}, -1, []string{"embed=1"}, ""},
		{"every view parameter", "https://plog.example/#" + link + "&at=3&readonly=1&play=1&loop=1-2&theme=dark&later=x",
			source{"link", text}, 3, []string{"readonly=1", "play=1", "loop=1-2", "theme=dark", "later=x"}, ""},
		{"progress in a lesson", "#" + link + "&lesson=key-order", source{"link", text}, -1, []string{"lesson=key-order"}, ""},
		{"kept-aside steps", "#" + link + "&branch=1." + link, source{"link", text}, -1, []string{"branch=1." + clipLink(link)}, ""},
		{"a lesson's start", "#lesson=key-order", source{"lesson key-order", keyOrder.Script}, -1, nil, ""},
		{"a lesson's start, no '#'", "lesson=key-order&embed=1", source{"lesson key-order", keyOrder.Script}, -1, []string{"embed=1"}, ""},
		{"a lesson link's start", "http://host/#lesson=" + lessonLink, source{"lesson offsets", offsets.Script}, -1, nil, ""},
		{"malformed at=", "#" + link + "&at=x&embed=1", source{"link", text}, -1, nil, `link parameter at="x" should be a step number`},
		{"malformed flag", "#" + link + "&embed=yes", source{"link", text}, -1, nil, `link parameter embed="yes" should be 1 or 0`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := readLink(c.arg)
			if err != nil {
				t.Fatal(err)
			}
			if got.source != c.wantSource {
				t.Errorf("source %q:\n%s\nwant %q:\n%s", got.name, got.text, c.wantSource.name, c.wantSource.text)
			}
			if got.at != c.wantAt || !slices.Equal(got.ignored, c.ignored) {
				t.Errorf("at %d, ignored %q; want at %d, ignored %q", got.at, got.ignored, c.wantAt, c.ignored)
			}
			if c.problem == "" && got.problem != "" || !strings.HasPrefix(got.problem, c.problem) {
				t.Errorf("problem %q, want %q", got.problem, c.problem)
			}
		})
	}
}

// What the page cannot open either is refused, with why.
func TestReadLinkRefuses(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{"http://host/sub/path/", "has no fragment (#v1.… or #lesson=…)"},
		{"#v1.!!!&at=2", "not valid base64url"},
		{"#embed=1&at=2", "the link holds no scenario (v1.…) and no lesson (lesson=…)"},
		{"", "the link holds no scenario"},
		{"#lesson=key-ordr", `no lesson named "key-ordr"; did you mean "key-order"?`},
		{"#lesson=v1.AAAA", "the link's lesson cannot be opened"},
	} {
		if _, err := readLink(c.arg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("readLink(%q): %v, want %q", c.arg, err, c.want)
		}
	}
}

// plogsim run --link prints the state the page shows at the link's step,
// and says on stderr what it ignores.
func TestRunTakesTheAddressBar(t *testing.T) {
	path := writeFile(t, script)
	link := linkOf(t, script)
	_, atTwo, _ := plogsim(t, "", "run", "--at", "2", path)
	for _, c := range []struct {
		name    string
		args    []string
		out     string
		stderrs []string
	}{
		{"at= and a view parameter", []string{"run", "--link", "http://host/plog/#" + link + "&at=2&embed=1"}, atTwo,
			[]string{"plogsim run: ignoring the link's view parameters: embed=1\n"}},
		{"--at over at=", []string{"run", "--at", "2", "--link", "#" + link + "&at=4"}, atTwo,
			[]string{"plogsim run: ignoring the link's view parameters: at=4 (--at 2 says otherwise)\n"}},
		{"at= past the end", []string{"run", "--link", link + "&at=99"}, "",
			[]string{"plogsim run: step 99 asked for, but the scenario has 6 steps: the state after the last\n"}},
		{"malformed parameters", []string{"run", "--link", link + "&at=-1&theme=dark"}, "",
			[]string{`plogsim run: ignoring the link's parameters, as the page does: link parameter at="-1" should be a step number from 0 to`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := plogsim(t, "", c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if c.out != "" && out != c.out {
				t.Errorf("state:\n%s\nwant the state at step 2:\n%s", out, c.out)
			}
			for _, want := range c.stderrs {
				if !strings.HasPrefix(errOut, want) {
					t.Errorf("stderr %q, want %q", errOut, want)
				}
			}
		})
	}
	_, whole, _ := plogsim(t, "", "run", path)
	code, out, errOut := plogsim(t, "", "run", "--link", link)
	if code != 0 || out != whole || errOut != "" {
		t.Errorf("a link alone: exit %d, stderr %q, the state differs from the file's: %v", code, errOut, out != whole)
	}
}

// plogsim kafka --link runs the whole scenario of a page's address, and
// says it ignores at= and the view's parameters.
func TestKafkaTakesTheAddressBar(t *testing.T) {
	brokers := startKfake(t)
	code, out, errOut := runCLI("kafka", "--brokers", brokers, "--timeout", "5s", "--link", "http://host/#"+linkOf(t, kafkaScript)+"&at=1&embed=1")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if want := "plogsim kafka: ignoring the link's view parameters: at=1 (the run takes the whole scenario) embed=1\n"; errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	if !strings.Contains(out, "group billing: state stable") {
		t.Errorf("the run did not take the whole scenario:\n%s", out)
	}
}
