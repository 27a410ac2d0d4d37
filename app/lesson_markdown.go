package app

import (
	"strings"

	"plog/core/lesson"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A lesson's explanation and hints are Markdown that package lesson has
// parsed into blocks and inlines (core/lesson/markdown.go). The page builds
// its own elements from them and never writes a lesson's text as HTML: a
// tag in a lesson file is text on the page. A link opens in a new tab that
// has no handle on the page, and only to the addresses a lesson may link to;
// nothing in a lesson loads anything by itself (no images).

// lessonBlocks draws a lesson's explanation: paragraphs and lists.
func lessonBlocks(doc []lesson.Block) []app.UI {
	ui := make([]app.UI, 0, len(doc))
	for _, b := range doc {
		if b.Items == nil {
			ui = append(ui, app.P().Body(lessonInlines(b.Inlines)...))
			continue
		}
		items := make([]app.UI, len(b.Items))
		for i, item := range b.Items {
			items[i] = app.Li().Body(lessonInlines(item)...)
		}
		if b.Ordered {
			ui = append(ui, app.Ol().Body(items...))
		} else {
			ui = append(ui, app.Ul().Body(items...))
		}
	}
	return ui
}

// lessonInlines draws a run of a lesson's text.
func lessonInlines(in []lesson.Inline) []app.UI {
	ui := make([]app.UI, 0, len(in))
	for _, x := range in {
		switch x.Kind {
		case lesson.InlineEmphasis:
			ui = append(ui, app.Em().Text(x.Text))
		case lesson.InlineStrong:
			ui = append(ui, app.Strong().Text(x.Text))
		case lesson.InlineCode:
			ui = append(ui, app.Code().Text(x.Text))
		case lesson.InlineLink:
			ui = append(ui, lessonLink(x))
		case lesson.InlineControl:
			ui = append(ui, controlButton(x))
		default:
			ui = append(ui, app.Text(x.Text))
		}
	}
	return ui
}

// lessonLinkSchemes are the addresses a lesson's link may open. Package
// lesson refuses the others when it reads the file; the page checks again,
// since what it draws must never depend on a parser's care alone.
var lessonLinkSchemes = []string{"https://", "http://", "mailto:"}

// lessonLink draws a lesson's link: to a new tab, with no opener and no
// referrer, or as its text when its address is not one a lesson may open.
//
// go-app takes every click on a link for a navigation of its own (and
// opens another host's with window.open, which hands the new tab this
// page); stopping the click there leaves it to the browser, which honours
// target and rel.
func lessonLink(x lesson.Inline) app.UI {
	url := strings.TrimSpace(x.URL)
	ok := false
	for _, scheme := range lessonLinkSchemes {
		ok = ok || strings.HasPrefix(strings.ToLower(url), scheme) && len(url) > len(scheme)
	}
	if !ok || strings.ContainsAny(url, " <>\"'`\\\n\t") {
		return app.Text(x.Text)
	}
	return app.A().Href(url).Target("_blank").Rel("noopener noreferrer").
		DataSet("lesson-link", true).OnClick(leaveToBrowser).Text(x.Text)
}

// leaveToBrowser keeps a click from the page's own handling of links.
func leaveToBrowser(ctx app.Context, e app.Event) {
	e.Call("stopPropagation")
}
