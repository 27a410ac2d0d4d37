package app

import (
	"fmt"
	"html"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"plog/core/units"
)

// maxShareFragment is the longest fragment the share dialog offers as a
// link. Browsers keep much longer URLs, but chat apps, mail clients and
// link shorteners cut them at a few thousand characters; above 8 KB the
// dialog offers the scenario as a file.
const maxShareFragment = 8 << 10

// ShareDialog offers the scenario: its link, copied to the clipboard or
// selected for copying by hand; a .plog file when the link is too long (and
// always, for keeping); and an iframe snippet for a course page.
type ShareDialog struct {
	app.Compo

	Lines    []string
	Position int
	Rules    int // the rules the scenario runs under; 0 is the latest
	Options  linkOptions
	Base     string

	embed embedChoice
	// The steps an animated picture goes through, as typed
	// (picture_download.go).
	animFrom, animTo string
	copyStatus
}

// The ids of the dialog's fields, which the copy buttons select when the
// clipboard is out of reach.
const (
	shareLinkField = "share-link"
	snippetField   = "embed-snippet"
	downloadButton = "download-plog"
)

// copyStatus is what a component's last copy (or download) did, and the
// field or button it is about: the share dialog's and the lesson editor's.
type copyStatus struct {
	status    string
	statusFor string
}

// copy copies text to the clipboard; when the clipboard is out of reach it
// selects the field that shows the text, for the learner to copy by hand.
func (c *copyStatus) copy(field, text string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		b := currentBrowser()
		ctx.Async(func() {
			err := b.CopyText(text)
			ctx.Dispatch(func(ctx app.Context) {
				c.statusFor = field
				if err != nil {
					b.SelectText(field)
					c.status = "The browser does not let the page use the clipboard here (" + err.Error() +
						"), so the text is selected: press Ctrl+C (⌘C on a Mac) to copy it."
					return
				}
				c.status = "Copied."
			})
		})
	}
}

// iframeSnippet is the HTML that embeds a page in a course page.
// clipboard-write lets the embedded page's copy buttons work when the
// course page is on another origin, as it usually is.
func iframeSnippet(src, title string) string {
	return fmt.Sprintf(`<iframe src="%s" title="%s" width="640" height="400" loading="lazy" allow="clipboard-write" style="border:1px solid #ccc; max-width:100%%"></iframe>`,
		html.EscapeString(src), html.EscapeString(title))
}

func (d *ShareDialog) download(ctx app.Context, e app.Event) {
	d.statusFor = downloadButton
	if err := currentBrowser().Download(plogFileName, plogFile(d.Lines, d.Position, d.Rules)); err != nil {
		d.status = "The download did not start: " + err.Error()
		return
	}
	// The browser does not say whether the file arrived: a page that embeds
	// plog in a frame sandboxed without allow-downloads blocks it silently.
	d.status = "The download of " + plogFileName + " has started; if it does not arrive, the page around this one may block downloads."
}

// embedChoice is what the dialog's embed controls ask of the frame: the
// parameters of docs/sharing.md's Embedding section.
type embedChoice struct {
	readOnly, play, loop bool
	loopFrom, loopTo     string // the loop's steps as typed
	theme                string // "" for the learner's own choice; else one of themeNames
}

// checkedTo sets a choice from a checkbox's change, as ValueTo does a text's.
func checkedTo(choice *bool) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		*choice = ctx.JSSrc().Get("checked").Bool()
	}
}

// setEmbedLoop ticks or unticks the loop; ticked the first time, it loops
// the whole scenario, from its first step to its last.
func (d *ShareDialog) setEmbedLoop(ctx app.Context, e app.Event) {
	d.embed.loop = ctx.JSSrc().Get("checked").Bool()
	if d.embed.loop && d.embed.loopFrom == "" && d.embed.loopTo == "" {
		d.embed.loopFrom, d.embed.loopTo = "0", fmt.Sprint(len(d.Lines))
	}
}

// embedOptions are the link options the embed controls choose, and why
// the loop was left out of them, if it was.
func (d *ShareDialog) embedOptions() (linkOptions, string) {
	c := d.embed
	o := linkOptions{Embed: true, ReadOnly: c.readOnly, Play: c.play, Theme: c.theme}
	if !c.loop {
		return o, ""
	}
	r, err := parseLoop(c.loopFrom+"-"+c.loopTo, len(d.Lines))
	if err != nil {
		return o, "The snippet leaves the loop out: " + err.Error() + "."
	}
	o.Loop = r
	return o, ""
}

// statusOf shows the status of one field, if it is about that field.
func (c *copyStatus) statusOf(field string) app.UI {
	text := ""
	if c.statusFor == field {
		text = c.status
	}
	return app.P().Class("share-status").ID(field+"-status").Attr("role", "status").Text(text)
}

// Render draws the dialog.
func (d *ShareDialog) Render() app.UI {
	fragment, err := fragmentOf(d.Lines, d.Position, d.Rules, d.Options)
	if err != nil {
		return app.Section().ID("share-dialog").Class("panel", "share-dialog").Aria("label", "share this scenario").Body(
			panelHead("Share this scenario", "share"),
			app.P().Attr("role", "alert").Text("This scenario does not fit in a link: "+err.Error()),
			d.downloadRow(),
		)
	}
	link := pageURL(d.Base, fragment)
	embedOptions, loopProblem := d.embedOptions()
	embedURL := pageURL(d.Base, withOptions(fragment, embedOptions))
	snippet := iframeSnippet(embedURL, "plog: a Kafka scenario")
	tooLong := len(fragment) > maxShareFragment
	return app.Section().ID("share-dialog").Class("panel", "share-dialog").Aria("label", "share this scenario").
		DataSet("fragment-bytes", len(fragment)).DataSet("too-long", tooLong).Body(
		panelHead("Share this scenario", "share"),
		field(shareLinkField, "Link to this scenario, at this step",
			app.Input().Type("text").ID(shareLinkField).ReadOnly(true).Value(link)),
		app.Div().Class("row").Body(
			app.Button().Type("button").ID("copy-link").OnClick(d.copy(shareLinkField, link)).Text("Copy link"),
		),
		d.statusOf(shareLinkField),
		app.If(tooLong,
			app.P().Class("too-long").Text(fmt.Sprintf(
				"This link is %s long. Links above %s get cut by browsers, chat apps and mail: share the scenario as a file instead.",
				units.ReadableSize(int64(len(fragment))), units.ReadableSize(maxShareFragment))),
		),
		d.downloadRow(),
		d.pictureRow(), // picture_download.go
		app.H3().Text("Embed in a course page"),
		d.embedControls(loopProblem),
		field(snippetField, "HTML for an iframe (640×400)",
			app.Textarea().ID(snippetField).ReadOnly(true).Rows(4).Text(snippet)),
		app.Div().Class("row").Body(
			app.Button().Type("button").ID("copy-snippet").OnClick(d.copy(snippetField, snippet)).Text("Copy snippet"),
		),
		d.statusOf(snippetField),
		d.clusterRow(),
		app.H3().Text("Teach with it"),
		app.Div().Class("row").Body(&LessonEditorButton{ID: "lesson-editor-open", Label: "Make a lesson from this scenario"}), // lesson_editor.go
	)
}

// embedControls choose the frame's parameters; each choice rewrites the
// snippet.
func (d *ShareDialog) embedControls(loopProblem string) app.UI {
	c := &d.embed
	check := func(id, label string, checked bool, onChange app.EventHandler) app.UI {
		return app.Div().Class("field", "check").Body(
			app.Input().Type("checkbox").ID(id).Checked(checked).OnChange(onChange),
			app.Label().For(id).Text(label),
		)
	}
	return app.Div().Class("embed-options").Body(
		check("embed-readonly", "read-only: step and play, no editing", c.readOnly, checkedTo(&c.readOnly)),
		check("embed-play", "play as it opens", c.play, checkedTo(&c.play)),
		app.Div().Class("row", "embed-loop-choice").Body(
			check("embed-loop", "loop steps", c.loop, d.setEmbedLoop),
			app.If(c.loop,
				field("embed-loop-from", "from step", numberInput("embed-loop-from", &c.loopFrom, &d.Compo)),
				field("embed-loop-to", fmt.Sprintf("to step (of %d)", len(d.Lines)), numberInput("embed-loop-to", &c.loopTo, &d.Compo)),
			),
		),
		app.If(loopProblem != "", app.P().ID("embed-loop-status").Attr("role", "alert").Text(loopProblem)),
		field("embed-theme", "colours", app.Select().ID("embed-theme").OnChange(d.ValueTo(&c.theme)).Body(
			app.Option().Value("").Selected(c.theme == "").Text("the learner's own choice"),
			app.Range(themeNames).Slice(func(i int) app.UI {
				name := themeNames[i]
				return app.Option().Value(name).Selected(c.theme == name).Text(themeLabels[name])
			}),
		)),
	)
}

// themeLabels name the themes theme= may ask for, in the dialog's words.
var themeLabels = map[string]string{"light": "light", "dark": "dark", "system": "the system's"}

func (d *ShareDialog) downloadRow() app.UI {
	return app.Div().Body(
		app.Div().Class("row").Body(
			app.Button().Type("button").ID(downloadButton).OnClick(d.download).Text("Download "+plogFileName),
		),
		app.P().Class("hint").Text("The file opens in the playground (Scenarios, or drop it on the page) and runs with plogsim run "+plogFileName+"."),
		d.statusOf(downloadButton),
	)
}

// pageURL is a page address with a fragment.
func pageURL(base, fragment string) string {
	if fragment == "" {
		return base
	}
	return base + "#" + fragment
}
