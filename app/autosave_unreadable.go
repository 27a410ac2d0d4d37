package app

import (
	"encoding/json"
	"fmt"
	"strings"

	"plog/core/scenario"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A saved workspace or recent list the page cannot read (cut short, of
// other types, huge, written by another version of plog) would otherwise
// open as nothing, and the next save would write over what it still held.
// The page says so, and keeps it: it copies the value as it is to a key
// of its own beside it (asideSuffix), and only then saves over it; a value
// too large to copy (past maxAsideBytes), or one it cannot copy (storage
// full, the key beside taken by another), stays where it is, and the page
// does not save over it until the learner has downloaded it. The notice
// offers the download either way. Of a recent list, the entries the page
// can read are kept in Recent.

// asideSuffix names the key that keeps an unreadable value: the value of
// plog.workspace goes to plog.workspace.unreadable.
const asideSuffix = ".unreadable"

// maxAsideBytes bounds the values the page copies aside. What the page
// writes is smaller: a workspace is one link, which holds a script of at
// most scenario.MaxScriptBytes, compressed; the recent list, maxRecent
// links of at most maxRecentFragment. Storage holds 5 MB or so a site.
const maxAsideBytes = 2 << 20

// storedValues is what the page found in storage that it could not read.
type storedValues struct {
	unreadable []unreadableValue
	keep       map[string]bool // keys the page does not save over: their value stays there
	dismissed  bool            // the learner closed the notice
}

// unreadableValue is a stored value the page could not read.
type unreadableValue struct {
	Key        string // where the page found it
	Aside      string // the key it was copied to; "" when it stays at Key
	Bytes      int
	Readable   int    // of a recent list, the entries the page could read
	Downloaded string // the file it was downloaded as
	Problem    string // why the download failed
}

// loadSavedWorkspace reads the workspace saved last, in any tab; the zero
// value when there is none, or none the page can read.
func (p *Playground) loadSavedWorkspace(b Browser) savedWorkspace {
	raw, err := b.LoadItem(workspaceKey)
	if err != nil || raw == "" {
		return savedWorkspace{}
	}
	w, ok := parseWorkspace(raw)
	if !ok {
		p.setAside(b, workspaceKey, raw, 0)
		return savedWorkspace{}
	}
	return w
}

// parseWorkspace reads a saved workspace as the page writes it: an object
// with a string id and a fragment the link codec reads.
func parseWorkspace(raw string) (savedWorkspace, bool) {
	if len(raw) > maxAsideBytes {
		return savedWorkspace{}, false
	}
	var w struct {
		ID       string  `json:"id"`
		Fragment *string `json:"fragment"`
	}
	if json.Unmarshal([]byte(raw), &w) != nil || w.Fragment == nil {
		return savedWorkspace{}, false
	}
	if *w.Fragment != "" {
		f, err := scenario.ParseFragment(*w.Fragment)
		if err != nil {
			return savedWorkspace{}, false
		}
		if f.Link != "" {
			if _, err := scenario.DecodeLink(f.Link); err != nil {
				return savedWorkspace{}, false
			}
		}
	}
	return savedWorkspace{ID: w.ID, Fragment: *w.Fragment}, true
}

// loadRecent reads the recent list. When some of it cannot be read, the
// entries that can are listed, and the list as stored is set aside.
func (p *Playground) loadRecent(b Browser) []recentScenario {
	raw, err := b.LoadItem(recentKey)
	if err != nil || raw == "" {
		return nil
	}
	recent, ok := parseRecent(raw)
	if !ok {
		p.setAside(b, recentKey, raw, len(recent))
	}
	return recent
}

// parseRecent reads a recent list as the page writes it: a JSON array of
// at most maxRecent entries, each with an id and a fragment. It returns
// the entries it could read, and whether that was all of it. It reads no
// more than maxRecent entries of a longer list, so a huge one costs no more
// than a long one.
func parseRecent(raw string) ([]recentScenario, bool) {
	if len(raw) > maxAsideBytes {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return nil, false
	}
	var recent []recentScenario
	whole := true
	for n := 0; dec.More(); n++ {
		var entry json.RawMessage
		if n == maxRecent || dec.Decode(&entry) != nil {
			return recent, false
		}
		var r recentScenario
		if json.Unmarshal(entry, &r) != nil || r.ID == "" || r.Fragment == "" || len(r.Fragment) > maxRecentFragment || r.Steps < 0 {
			whole = false
			continue
		}
		recent = append(recent, r)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim(']') {
		return recent, false
	}
	if _, err := dec.Token(); err == nil {
		return recent, false // something after the list
	}
	return recent, whole
}

// setAside keeps an unreadable value out of the page's way: copied beside
// its key when it can be, or else left where it is, and said.
func (p *Playground) setAside(b Browser, key, raw string, readable int) {
	s := &p.share.stored
	for _, u := range s.unreadable {
		if u.Key == key {
			return // seen already: the recent list is read again at each save
		}
	}
	u := unreadableValue{Key: key, Bytes: len(raw), Readable: readable}
	if aside := key + asideSuffix; len(raw) <= maxAsideBytes {
		switch kept, err := b.LoadItem(aside); {
		case err != nil:
		case kept == raw:
			u.Aside = aside
		case kept == "" && b.SaveItem(aside, raw) == nil:
			u.Aside = aside
		}
	}
	if u.Aside == "" {
		if s.keep == nil {
			s.keep = map[string]bool{}
		}
		s.keep[key] = true
	}
	if key == workspaceKey {
		s.unreadable = append([]unreadableValue{u}, s.unreadable...) // said first
	} else {
		s.unreadable = append(s.unreadable, u)
	}
	s.dismissed = false
}

// downloadUnreadable offers an unreadable value as a file. Once the
// learner has it, the page may save where it was.
func (p *Playground) downloadUnreadable(key string) {
	s := &p.share.stored
	for i := range s.unreadable {
		u := &s.unreadable[i]
		if u.Key != key {
			continue
		}
		from := u.Aside
		if from == "" {
			from = u.Key
		}
		b := currentBrowser()
		raw, err := b.LoadItem(from)
		if err == nil && raw == "" {
			err = fmt.Errorf("nothing is stored under %s any more", from)
		}
		name := strings.ReplaceAll(key, ".", "-") + "-unreadable.txt"
		if err == nil {
			err = b.Download(name, raw)
		}
		if err != nil {
			u.Problem = "It could not be downloaded: " + err.Error() + "."
			return
		}
		u.Downloaded, u.Problem = name, ""
		delete(s.keep, key)
	}
}

// sentence says what the page found, and where it is now.
func (u unreadableValue) sentence() string {
	var b strings.Builder
	if u.Key == recentKey {
		fmt.Fprintf(&b, "Your list of recent scenarios could not be read whole: it is damaged, or comes from another version of plog. Scenarios → Recent shows the %s it could read. ",
			countOf(u.Readable, "scenario"))
	} else {
		b.WriteString("The scenario you were working on could not be opened: what this browser saved of it is damaged, or comes from another version of plog. ")
	}
	switch {
	case u.Downloaded != "":
		fmt.Fprintf(&b, "It was downloaded as %s.", u.Downloaded)
	case u.Aside != "":
		// The key it is kept under is the notice's data-kept-at, for
		// whoever looks in the browser's storage; a learner needs only
		// the button.
		b.WriteString("This browser keeps it as it was, and nothing saves over it: download it to look at it or to send it with a bug report. Your other scenarios are under Scenarios → Recent.")
	default:
		fmt.Fprintf(&b, "It is too large to copy (%s), so it stays where it is, and nothing saves over it until you download it.", units.ReadableSize(int64(u.Bytes)))
	}
	return b.String()
}

// unreadableNotice says what the page could not read, with a button to
// download each; while there is nothing to say, an empty, hidden slot
// (playground.go's slots).
func (p *Playground) unreadableNotice() app.UI {
	s := p.share.stored
	if len(s.unreadable) == 0 || s.dismissed {
		return app.Div().Class("unreadable-slot").Hidden(true)
	}
	return app.Div().Class("notice", "unreadable").Attr("role", "alert").Body(
		app.Range(s.unreadable).Slice(func(i int) app.UI {
			u := s.unreadable[i]
			return app.P().DataSet("unreadable", u.Key).DataSet("kept-at", u.Aside).Body(
				app.Text(u.sentence()+" "),
				app.If(u.Problem != "", app.Strong().Text(u.Problem+" ")),
				app.If(u.Downloaded == "",
					app.Button().Type("button").Class("link-button").DataSet("download-unreadable", u.Key).
						OnClick(func(ctx app.Context, e app.Event) { p.downloadUnreadable(u.Key) }, u.Key).
						Text("Download it"),
				),
			)
		}),
		app.Button().Type("button").Class("link-button").ID("unreadable-dismiss").
			OnClick(func(ctx app.Context, e app.Event) { p.share.stored.dismissed = true }).Text("OK"),
	)
}
