package e2e

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Links come from strangers. Whatever a link holds, the page must stay
// alive, say what was wrong, open an empty or partial playground, and show
// the link's text as text, never as markup.

// deflateLink is "#v1." and the base64url of the raw DEFLATE of data, as a
// link is made, whatever data is.
func deflateLink(t *testing.T, data []byte) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return "#v1." + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// injection is markup that would run or show if the page ever wrote user
// text as HTML: each piece leaves a trace the test looks for.
const injection = `<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><b id=pwned>bold</b>`

// createTopic makes a topic through the topic form and waits for its lanes.
func (b *browser) createTopic(t *testing.T, name string, partitions int) {
	t.Helper()
	b.fill(t, "#topic-name", name)
	b.fill(t, "#topic-partitions", fmt.Sprint(partitions))
	b.click(t, "#topic-create")
	b.waitCount(t, fmt.Sprintf(`[data-topic=%q][data-partition]`, name), partitions)
}

// injected says what of the injection reached the page as markup.
func injected(t *testing.T, b *browser) string {
	t.Helper()
	return eval[string](t, b, `[
		window.pwned !== undefined ? "a script ran (window.pwned = " + window.pwned + ")" : "",
		document.querySelector("img[src=x], [onerror]") ? "an injected img exists" : "",
		document.getElementById("pwned") ? "an injected element exists" : "",
	].filter(Boolean).join(", ")`)
}

func TestHostileLinksLeaveAWorkingPage(t *testing.T) {
	t.Parallel()
	random := rand.New(rand.NewPCG(1, 2))
	junk := make([]byte, 3000)
	for i := range junk {
		junk[i] = byte(random.Uint32())
	}
	good := linkOf(t, ordersScenario)
	var million strings.Builder
	million.WriteString("topic t partitions=1\n")
	for range 1_000_000 {
		million.WriteString("advance 1ms\n")
	}
	var tooMany strings.Builder
	for range 20_001 {
		tooMany.WriteString("advance 1ms\n")
	}
	htmlScript := "topic orders partitions=2\n" +
		"produce orders key=" + quote(injection) + " value=" + quote(injection) + "\n" +
		"produce orders key=" + quote("</div><script>window.pwned=3</script>") + " value=v\n"

	cases := []struct {
		name     string
		fragment string
		alert    string // a word the alert must hold; "" for no alert
		lanes    int    // how many lanes the page may show
	}{
		{"truncated payload", good[:len(good)/2], "DEFLATE", 0},
		{"truncated inside the base64", good[:len(good)-3] + "%", "base64", 0},
		{"random bytes", "#v1." + base64.RawURLEncoding.EncodeToString(junk), "link", 0},
		{"random bytes as text", "#" + percentEncode(junk[:400]), "link", 0},
		{"a DEFLATE bomb", deflateLink(t, make([]byte, 64<<20)), "decompressed", 0},
		{"a million commands", deflateLink(t, []byte(million.String())), "decompressed", 0},
		{"too many commands", deflateLink(t, []byte(tooMany.String())), "commands", 0},
		{"too many records", deflateLink(t, []byte("topic t\n"+strings.Repeat("produce t count=10000\n", 100)+"produce t\n")), "records", 0},
		{"a script that is not UTF-8", deflateLink(t, []byte("topic \xff\xfe\n")), "UTF-8", 0},
		{"an unknown version", "#v9." + good[4:], "version", 0},
		{"markup in keys and values", linkOf(t, htmlScript), "", 2},
		{"markup as a command", deflateLink(t, []byte("topic orders partitions=2\n<b id=pwned>x</b> now\n")), "link", 0},
		{"markup after good lines", deflateLink(t, []byte("topic orders partitions=2\n"+injection+"\n")), "link", 0},
		{"markup in the parameters", good + "&at=" + injection, "parameters", 4},
		{"markup as a lesson", good + "&lesson=" + strings.ReplaceAll(injection, " ", ""), "", 4},
	}
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL) // the service worker makes the reopenings below quick
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b.reopen(t, srv.URL+tc.fragment)
			alert := eval[string](t, b, `Array.from(document.querySelectorAll("main > [role=alert]")).map(el => el.textContent).join(" ")`)
			switch {
			case tc.alert != "" && !strings.Contains(alert, tc.alert):
				t.Errorf("%s: alert %q, want it to say what was wrong (%q)", tc.name, alert, tc.alert)
			case tc.alert == "" && tc.name == "markup in keys and values" && alert != "":
				t.Errorf("%s: unexpected alert %q", tc.name, alert)
			}
			if n := len(lanesOnPage(t, b)); n > tc.lanes {
				t.Errorf("%s: %d lanes, want at most %d", tc.name, n, tc.lanes)
			}
			if what := injected(t, b); what != "" {
				t.Errorf("%s: %s", tc.name, what)
			}
			if strings.Contains(tc.fragment, "pwned") && tc.alert != "" && !strings.Contains(alert, "<") {
				t.Logf("%s: the alert does not quote the markup (%q)", tc.name, alert)
			}
			// A later command still works.
			b.createTopic(t, "after", 1)
		})
	}

	// The keys and values made of markup are shown as they are: as text.
	b.reopen(t, srv.URL+linkOf(t, htmlScript))
	keys := eval[[]string](t, b, `Array.from(document.querySelectorAll("[data-key]")).map(el => el.dataset.key)`)
	if !slices.Contains(keys, injection) {
		t.Errorf("the record keyed with markup does not show its key as text: keys on the page %q", keys)
	}
	if !strings.Contains(eval[string](t, b, `document.querySelector("main").textContent`), "<script>window.pwned=2</script>") &&
		!strings.Contains(eval[string](t, b, `document.querySelector(".timeline").textContent`), "window.pwned=2") {
		t.Error("the markup in the script is not shown as text anywhere")
	}
	if what := injected(t, b); what != "" {
		t.Error(what)
	}
	b.noErrors(t)
}

// quote writes a value of the scenario language in double quotes.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// percentEncode percent-encodes every byte.
func percentEncode(data []byte) string {
	var b strings.Builder
	for _, c := range data {
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
