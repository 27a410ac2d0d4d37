package app

import (
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ShareGroupConfigForm sets a share group's configs (Kafka 4.4's
// GroupConfig: share.record.lock.duration.ms, share.delivery.count.limit,
// share.auto.offset.reset and the others of the registry's OnShareGroup),
// each with the control its kind takes: a choice or a flag is a select,
// sent as soon as it is picked; a duration or a count is a field with its
// bounds in its title, sent with Set. The configs come from the registry
// (core/config_registry.go), so a new one gets its control here.
type ShareGroupConfigForm struct {
	app.Compo

	Group   string
	Configs []core.ConfigEntry // the group's, with their values now

	typed    map[string]string // config name -> value typed since the last Set
	typedFor string            // the group the values were typed for
}

func (f *ShareGroupConfigForm) control() string { return "share/" + f.Group + "/config" }

// choiceLine sets a choice or flag config to the value picked.
func (f *ShareGroupConfigForm) choiceLine(name, value string) string {
	return scenario.CmdConfig + " group " + word(f.Group) + " " + name + "=" + word(value)
}

// setLine sets every field typed in since the last Set, in the registry's
// order, or says there is nothing to set.
func (f *ShareGroupConfigForm) setLine() (string, string) {
	var sets []string
	for _, d := range core.Configs(core.OnShareGroup) {
		if v := strings.TrimSpace(f.typed[d.Name]); v != "" && !shareConfigPicked(d) {
			sets = append(sets, d.Name+"="+word(v))
		}
	}
	if len(sets) == 0 {
		return "", "Type a new value in one of the fields, then Set."
	}
	return scenario.CmdConfig + " group " + word(f.Group) + " " + strings.Join(sets, " "), ""
}

// shareConfigPicked reports whether a config is picked from a list (a
// choice or a flag) rather than typed.
func shareConfigPicked(d core.ConfigDef) bool {
	return d.Kind == core.KindChoice || d.Kind == core.KindBool
}

// shareConfigChoices are the values a picked config takes.
func shareConfigChoices(d core.ConfigDef) []string {
	if d.Kind == core.KindBool {
		return []string{"true", "false"}
	}
	return d.Choices
}

// shareConfigBounds says the values a typed config takes, as the
// registry bounds it: "15s to 60s", "2 to 10".
func shareConfigBounds(d core.ConfigDef) string {
	if d.Kind == core.KindDuration {
		return units.Duration(d.Min) + " to " + units.Duration(d.Max)
	}
	return strconv.FormatInt(d.Min, 10) + " to " + strconv.FormatInt(d.Max, 10)
}

// value is a config's value now.
func (f *ShareGroupConfigForm) value(name string) string {
	for _, e := range f.Configs {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
}

func (f *ShareGroupConfigForm) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	line, problem := f.setLine()
	sendGroupLine(ctx, f.control(), line, problem)
	if problem == "" {
		f.typed = nil
	}
}

// Render draws [data-control="share/GROUP/config"]: a labelled control
// per config, named by the config, its value now shown, its help and
// bounds in its title.
func (f *ShareGroupConfigForm) Render() app.UI {
	if f.typedFor != f.Group {
		// go-app hands a list's components to its items by position.
		f.typed, f.typedFor = nil, f.Group
	}
	defs := core.Configs(core.OnShareGroup)
	control := f.control()
	return app.Form().
		Class("share-group-config").
		DataSet("control", control).
		DataSet("command", scenario.CmdConfig).
		Aria("label", "Configuration of share group "+f.Group).
		OnSubmit(f.submit).
		Body(
			app.Range(defs).Slice(func(i int) app.UI {
				d := defs[i]
				now := f.value(d.Name)
				help := configHelp(core.OnShareGroup, d.Name)
				if shareConfigPicked(d) {
					choices := shareConfigChoices(d)
					return app.Label().Class("config-choice").Title(help).Body(
						app.Span().Text(d.Name),
						app.Select().Name(d.Name).OnChange(func(ctx app.Context, e app.Event) {
							sendGroupLine(ctx, control, f.choiceLine(d.Name, ctx.JSSrc().Get("value").String()), "")
						}).Body(
							app.Range(choices).Slice(func(j int) app.UI {
								return app.Option().Value(choices[j]).Selected(choices[j] == now).Text(choices[j])
							}),
						),
					)
				}
				field := app.Input().Type("text").Name(d.Name).Size(6).Placeholder(now).
					Value(f.typed[d.Name]).AutoComplete(false).
					Aria("label", d.Name+" ("+shareConfigBounds(d)+"), now "+now).
					OnInput(func(ctx app.Context, e app.Event) {
						if f.typed == nil {
							f.typed = map[string]string{}
						}
						f.typed[d.Name] = ctx.JSSrc().Get("value").String()
					})
				if d.Kind == core.KindCount {
					field = field.Attr("inputmode", "numeric")
				}
				return app.Label().Class("config-field").Title(help+" Accepts "+shareConfigBounds(d)+".").Body(
					app.Span().Text(d.Name),
					field,
					app.Span().Class("share-config-bounds").Text(shareConfigBounds(d)),
				)
			}),
			app.Button().Type("submit").Text("Set"),
			&ControlError{Control: control},
		)
}
