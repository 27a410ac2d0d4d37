package app

import "reflect"

// A tool's form starts from its defaults when the page opens another link
// (a lesson, a scenario, a recent workspace). go-app keeps a component's
// state, what was typed in it, for as long as the component stays, and a
// key and a value typed in one lesson came back in the next, against its
// own words. The page counts the links it opened since it was ready
// (Playground.links) and gives the count to each form as Links; a form
// that sees a new count starts afresh at its render:
//
//	if f.Links != f.linksSeen {
//		startAfresh(f, (*Form).OnInit)
//		f.linksSeen = f.Links
//	}

// startAfresh puts a form's own state back as a new form's, then init's
// defaults (OnInit), keeping what is not the form's: its exported fields,
// which its parent gave it at this render, and go-app's (app.Compo).
func startAfresh[T any](form *T, init func(*T)) {
	var fresh T
	was, now := reflect.ValueOf(form).Elem(), reflect.ValueOf(&fresh).Elem()
	for i := range now.NumField() {
		if now.Type().Field(i).IsExported() {
			now.Field(i).Set(was.Field(i))
		}
	}
	*form = fresh
	if init != nil {
		init(form)
	}
}
