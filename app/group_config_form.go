package app

import (
	"sort"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupConfigForm sets a group's configs: auto-commit on or off at once, and
// the lag alert thresholds, session timeout, auto-commit interval and the
// time a rebalance takes with the Set button. Values
// take the units of the scenario language (10s, 2m).
type GroupConfigForm struct {
	app.Compo

	Group  string
	Config core.GroupConfig

	typed    map[string]string // config name -> value typed since the last Set
	typedFor string            // the group the values were typed for
}

// editableConfigs are the configs the form offers as fields, with labels;
// each field's title is the config's help from the engine's registry.
var editableConfigs = []struct{ name, label, help string }{
	{"lag.alert.records", "lag alert (records)", "lag-alert"},
	{"lag.alert.ms", "lag alert (time)", "lag-alert"},
	{"session.timeout.ms", "session timeout", "session-timeout"},
	{"auto.commit.interval.ms", "auto-commit interval", "auto-commit"},
	{"rebalance.ms", "rebalance time", "rebalance"},
	{"max.poll.interval.ms", "max poll interval", "max-poll-interval"},
	{"metadata.max.age.ms", "metadata max age", "max-poll-interval"},
	{"group.initial.rebalance.delay.ms", "first rebalance delay", "rebalance"},
	{"consumer.heartbeat.interval.ms", "heartbeat interval (consumer protocol)", "session-timeout"},
	{"consumer.session.timeout.ms", "session timeout (consumer protocol)", "session-timeout"},
}

// choiceConfigs are the configs the form offers as a choice, sent as soon as
// one is picked; the values are the registry's.
var choiceConfigs = []struct {
	name, label, help string
	values            []string
}{
	{"delivery", "processing", "delivery", groupChoices("delivery")},
	{"auto.offset.reset", "with no commit, start at", "auto-offset-reset", groupChoices("auto.offset.reset")},
	{"isolation.level", "reads", "isolation-level", groupChoices("isolation.level")},
}

// groupChoices are the values of a group config in the engine's registry.
func groupChoices(name string) []string {
	def, _ := core.LookupConfig(core.OnGroup, name)
	return def.Choices
}

// Render draws [data-control="billing/config"] with the auto-commit checkbox,
// the choices and the fields.
func (f *GroupConfigForm) Render() app.UI {
	control := groupControl(f.Group, "config")
	if f.typedFor != f.Group {
		// The inspector hands this form to the next group selected, which
		// must not be sent what was typed for this one.
		f.typed, f.typedFor = nil, f.Group
	}
	return app.Form().
		Class("group-config").
		DataSet("control", control).
		DataSet("command", "config").
		Aria("label", "Configuration of "+f.Group).
		OnSubmit(f.submit).
		Body(
			app.Label().Class("auto-commit").Body(
				app.Input().Type("checkbox").Name("enable.auto.commit").Checked(f.Config.AutoCommit).
					OnChange(f.toggleAutoCommit),
				app.Span().Text("auto-commit every "+units.Duration(f.Config.AutoCommitIntervalMs)),
			),
			&Help{Topic: "auto-commit"},
			app.Range(choiceConfigs).Slice(func(i int) app.UI {
				c := choiceConfigs[i]
				current := f.value(c.name)
				return app.Span().Class("config-choice").Body(
					app.Label().Title(configHelp(core.OnGroup, c.name)).Body(
						app.Span().Text(c.label),
						playgroundMark(core.OnGroup, c.name),
						app.Select().Name(c.name).OnChange(func(ctx app.Context, e app.Event) {
							sendGroupLine(ctx, control, f.choiceLine(c.name, ctx.JSSrc().Get("value").String()), "")
						}).Body(
							app.Range(c.values).Slice(func(j int) app.UI {
								return app.Option().Value(c.values[j]).Selected(c.values[j] == current).Text(c.values[j])
							}),
						),
					),
					&Help{Topic: c.help},
				)
			}),
			app.Range(editableConfigs).Slice(func(i int) app.UI {
				c := editableConfigs[i]
				if !f.Config.Has(c.name) {
					return nil // not a config of the scenario's rules (rules.go)
				}
				return app.Span().Class("config-field").Body(app.Label().Title(configHelp(core.OnGroup, c.name)).Body(
					app.Span().Text(c.label),
					playgroundMark(core.OnGroup, c.name),
					app.Input().Type("text").Name(c.name).Size(6).Value(f.value(c.name)).
						OnInput(func(ctx app.Context, e app.Event) {
							if f.typed == nil {
								f.typed = map[string]string{}
							}
							f.typed[c.name] = ctx.JSSrc().Get("value").String()
						}),
				), &DiffersLink{Name: c.name})
			}),
			app.Button().Type("submit").Text("Set"),
			&ControlError{Control: control},
		)
}

// value is what a field shows: what was typed, else the group's value.
func (f *GroupConfigForm) value(name string) string {
	if v, ok := f.typed[name]; ok {
		return v
	}
	for _, e := range f.Config.Entries() {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
}

func (f *GroupConfigForm) toggleAutoCommit(ctx app.Context, e app.Event) {
	on := ctx.JSSrc().Get("checked").Bool()
	sendGroupLine(ctx, groupControl(f.Group, "config"), f.autoCommitLine(on), "")
}

// choiceLine sets one of choiceConfigs to the value picked.
func (f *GroupConfigForm) choiceLine(name, value string) string {
	return "config group " + word(f.Group) + " " + name + "=" + word(value)
}

func (f *GroupConfigForm) autoCommitLine(on bool) string {
	return "config group " + word(f.Group) + " enable.auto.commit=" + strconv.FormatBool(on)
}

func (f *GroupConfigForm) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	line, problem := f.setLine()
	if problem == "" {
		f.typed = nil // the fields show the group's values again
	}
	sendGroupLine(ctx, groupControl(f.Group, "config"), line, problem)
}

// setLine makes the config command of the typed fields.
func (f *GroupConfigForm) setLine() (string, string) {
	names := make([]string, 0, len(f.typed))
	for name := range f.typed {
		names = append(names, name)
	}
	sort.Strings(names)
	var args []string
	for _, name := range names {
		v := strings.TrimSpace(f.typed[name])
		if v == "" {
			return "", "Give " + name + " a value (0 turns a lag alert off)."
		}
		args = append(args, name+"="+word(v))
	}
	if len(args) == 0 {
		return "", "Change a value first."
	}
	return "config group " + word(f.Group) + " " + strings.Join(args, " "), ""
}
