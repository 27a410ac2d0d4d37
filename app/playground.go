package app

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"plog/core"
	"plog/core/lesson"
	"plog/core/scenario"
	"plog/core/units"
	"plog/picture"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Playground is the page's root: it boots the engine with the scenario in the
// URL fragment, holds the session, and lays the page out. Every gesture of
// its children reaches it as one line of the scenario language (Apply) or a
// move in the history (undo, redo, seek); nothing else changes state.
type Playground struct {
	app.Compo

	link    string            // the URL fragment last applied; "" is the empty scenario
	session *scenario.Session // the scenario being played; the source of truth
	view    LogSnapshot       // what the engine holds, for rendering
	// forms is view's topics as the dock's forms know them
	// (keepFormTopics): the same slice while they do not change.
	forms []TopicSnapshot
	err   string // why the scenario in the link could not be (fully) applied
	ready bool   // the scenario from the URL has been applied

	// replicas is the cluster: the broker strip and the lanes' replicas
	// (snapshot_replicas.go).
	replicas ReplicaSnapshot

	// How the picture is looked at, not state (it is in no script): the
	// dock's tab, the thing the inspector shows, and the topic a topic's
	// produce button chose, each preset counted so the forms follow it.
	dock      string
	dockShown map[string]bool // the tabs shown so far, whose panels are drawn (dock.go)
	// toolsOpenIn is the key of the lesson the learner opened the tools
	// in: in any other lesson they start folded (toolsFolded).
	toolsOpenIn string
	selected    selection
	chartsOpen  bool // the groups column's charts are unfolded (chartsAction)
	links       int  // links opened since the page was ready (fresh_form.go)
	starterEnd  int  // the position the link opened at: where the starter's note shows (starter.go)
	selectSeq   int
	produceTo   string // the topic a topic's produce button chose for the produce form
	produceSeq  int

	// views holds where each lane's window starts, by laneKey; a lane not
	// in it follows its newest records. It is how the page is looked at,
	// not state: it is in no script.
	views map[string]int64
	// looks keeps each key's colour and shape from step to step
	// (key_colour.go); a link or a file opened starts it afresh.
	looks picture.LookMemory

	landing Landing // where the last produce put its records, and why
	// landingSaid is set when the landing came with a link: its notes say
	// what the link's last step did, and its lanes are not marked, so that
	// they open at their first record (lanes-follow.js follows a landing).
	landingSaid bool
	// landedFrom is the control whose line made the landing, for the
	// produce form to say where its records went.
	landedFrom string
	// rulesFrom is the rules the scenario ran under before the learner
	// chose others, offered back by the timeline; 0 when none.
	rulesFrom int
	removal   Removal // what the last command removed

	lesson lessonRun // the lesson the page is in, and the learner's progress in every lesson
	// pointSeq counts the pointings at a hint's control: a later one
	// ends an earlier one's looking and highlight (hint_controls.go).
	pointSeq int

	playing bool // workloads run: the clock advances by itself
	speed   int  // virtual seconds per tick while playing
	ticks   int  // counts play ticks; only the latest schedules the next

	urlUpdates     int // counts scheduled URL updates; only the latest runs
	removalUpdates int // counts removal animations; only the latest clears
	stopShortcuts  func()
	clock          clock // runs the delays above; nil is go-app's real time (clock.go)

	share sharing // link options, autosave, the embedding page (share_link.go)
}

// The go-app actions by which components reach the root.
const (
	applyAction   = "plog/apply"   // value: applyRequest
	historyAction = "plog/history" // value: historyMove
	viewAction    = "plog/view"    // value: laneView
	playAction    = "plog/play"    // value: playRequest
)

// applyRequest is lines and the control they came from, so an error shows
// next to that control. The lines go as one gesture: if one is refused, the
// ones before it are taken back and nothing changes.
type applyRequest struct {
	Control string
	Lines   []string
}

// ApplyFrom asks the page to run lines of the scenario language, as one
// gesture of a control: all of them apply, or none. Every gesture that
// changes the scenario ends here, so the script stays the source of truth:
// undo, time travel and share links all follow from it. A ControlError with
// the same control name, placed beside the control, shows why a line was
// refused, until the next action; with no control, the page's main alert
// does.
func ApplyFrom(ctx app.Context, control string, lines ...string) {
	ctx.NewActionWithValue(applyAction, applyRequest{Control: control, Lines: lines})
}

// historyMove is a move in the session's history.
type historyMove struct {
	Control string
	Kind    string // "undo", "redo", "seek", "restore"
	Step    int    // for seek
}

// laneView moves one lane's window; Offset followTail follows the newest.
type laneView struct {
	Topic     string
	Partition int
	Offset    int64
}

// playRequest starts or stops the clock (when Start or Stop), or sets its
// speed (when Speed > 0).
type playRequest struct {
	Start, Stop bool
	Speed       int
}

// OnMount applies the scenario in the URL, then marks the page ready: tests
// and embedding pages wait for main[data-ready="true"].
func (p *Playground) OnMount(ctx app.Context) {
	ctx.Handle(applyAction, p.handleApply)
	ctx.Handle(historyAction, p.handleHistory)
	ctx.Handle(viewAction, p.handleView)
	ctx.Handle(playAction, p.handlePlay)
	ctx.Handle(presentAction, p.handlePresent)
	ctx.Handle(pictureAction, p.handlePicture)
	ctx.Handle(selectAction, p.handleSelect)
	ctx.Handle(chartsAction, func(ctx app.Context, a app.Action) { p.chartsOpen, _ = a.Value.(bool) })
	ctx.Handle(dockAction, p.handleDock)
	ctx.Handle(foldToolsAction, p.handleFoldTools)
	ctx.Handle(pointAction, p.handlePoint)
	ctx.Handle(lessonAction, p.handleLesson)
	ctx.Handle(protocolCompareAction, p.handleProtocolCompare)
	p.stopShortcuts = app.Window().AddEventListener("keydown", p.onKeyDown)
	p.speed = 1
	p.applyLink(p.startingFragment(ctx))
	p.ready = true
	Mark(markMounted)
	p.after(ctx, hiddenPanelsDelay, p.drawHiddenPanel)
	p.startSharing(ctx)
	p.playOnOpen(ctx) // embed_bar.go: play=1, loop=FROM-TO
}

// OnDismount removes the page-wide keyboard listener.
func (p *Playground) OnDismount() {
	if p.stopShortcuts != nil {
		p.stopShortcuts()
	}
	p.stopSharing()
}

// handleApply runs a line against the session. On error the state is
// untouched and the control's alert says why; on success the view and, a
// moment later, the URL follow.
func (p *Playground) handleApply(ctx app.Context, a app.Action) {
	req, ok := a.Value.(applyRequest)
	if !ok || p.session == nil {
		return
	}
	if p.share.options.ReadOnly {
		p.showError(ctx, req.Control, readOnlyRefusal)
		return
	}
	releaseWorkspaceHeight()
	p.run(ctx, req.Control, func() error {
		err := p.applyLines(ctx, req.Lines)
		if err == nil {
			p.landedFrom = req.Control
		}
		return err
	})
}

// applyLines applies lines in order, as one gesture: when one is refused,
// the session is as it was before the first (position, steps ahead and
// branch), so a gesture changes all it says or nothing.
func (p *Playground) applyLines(ctx app.Context, lines []string) error {
	events, err := p.session.ApplyLines(lines)
	if err != nil {
		return err
	}
	p.keepSuperseded(p.session.Superseded()) // autosave.go
	p.noteEvents(events)
	return nil
}

// run does one action: it clears the last error, runs it, and shows what
// follows. A panic, which the engine promises never to raise, is turned into
// an alert: a panic in wasm would kill the page.
func (p *Playground) run(ctx app.Context, control string, action func() error) {
	setControlError(ctx, ControlAlert{})
	p.err = ""
	before := p.view
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("plog hit a bug (please report it with the link): %v", r)
			}
		}()
		return action()
	}()
	if err != nil {
		p.showError(ctx, control, controlMessage(control, err))
		return
	}
	p.refresh()
	p.landing.Moves = assignmentMotions(before.Groups, p.view.Groups)
	p.checkLesson()
	p.animateRemovals(ctx, before)
	p.scheduleURLUpdate(ctx)
}

// controlMessage is what a control says of a refused line. Beside the
// control that wrote the line, its place in the script ("line 3:7:") means
// nothing to the learner, so only the reason is kept.
func controlMessage(control string, err error) string {
	var serr *scenario.Error
	if control != "" && errors.As(err, &serr) {
		return serr.Msg
	}
	return err.Error()
}

// showError puts a message next to its control, or in the page's alert for
// a line that came from no control.
func (p *Playground) showError(ctx app.Context, control, msg string) {
	if control == "" {
		p.err = msg
		return
	}
	setControlError(ctx, ControlAlert{Control: control, Message: msg})
}

// refresh takes a new snapshot of the engine: the page renders from it.
func (p *Playground) refresh() {
	view, err := snapshotOf(p.session, p.views, &p.looks)
	if err != nil {
		p.err = err.Error()
	}
	p.view = view
	p.forms = keepFormTopics(p.forms, view.Topics)
	p.view.compareInspected(p.session, p.selected)
	p.replicas = replicaSnapshotOf(p.session)
	p.landing.noteHighWatermarks(view)
}

// handleSelect opens the inspector on a thing, or closes it.
func (p *Playground) handleSelect(ctx app.Context, a app.Action) {
	s, ok := a.Value.(selection)
	if !ok {
		return
	}
	p.selected = s
	p.selectSeq++
	p.view.compareInspected(p.session, s)
	switch {
	case s.Kind != "":
		p.showTab(dockInspector)
		revealInspector(ctx)
	case p.dock == dockInspector:
		p.dock = ""
		focusAfterClose(ctx, p.dockTab)
	}
}

// handleDock shows a tab of the dock; a topic's produce button also
// chooses its topic in the produce form.
func (p *Playground) handleDock(ctx app.Context, a app.Action) {
	r, ok := a.Value.(dockRequest)
	if !ok {
		return
	}
	p.showTab(r.Tab)
	if r.Topic != "" {
		p.produceTo = r.Topic
		p.produceSeq++
		// The form may be shown already, or far down a phone's page: the
		// key box takes the focus, and the form is scrolled so that the
		// Produce button shows under it, so that the learner sees where
		// the click led, can type the record and send it.
		ctx.Defer(func(app.Context) {
			if send := app.Window().GetElementByID("produce-send"); send.Truthy() {
				send.Call("scrollIntoView", map[string]any{"block": "nearest"})
			}
			if key := app.Window().GetElementByID("produce-key"); key.Truthy() {
				key.Call("focus")
			}
		})
	}
}

// closeInspector drops the selection and the inspector's tab: a new
// scenario or lesson does not hold the thing the last one selected, and
// its forms held the last one's names.
func (p *Playground) closeInspector() {
	p.selected = selection{}
	if p.dock == dockInspector {
		p.dock = ""
	}
}

// dockTab is the dock's tab shown: the one the learner chose, the
// inspector only while something is selected; by default the new topic
// form on a log without topics, produce on one with.
func (p *Playground) dockTab() string {
	if p.dock == "" || p.dock == dockInspector && p.selected.Kind == "" {
		if len(p.view.Topics) == 0 {
			return dockTopics
		}
		return dockProduce
	}
	return p.dock
}

// drawDockPanel draws a tab's panel from now on (dock.go).
// drawHiddenPanel draws the first tab's panel not drawn yet, and the next
// at a later turn of the browser's: the four hidden forms of a large
// scenario were 470 elements, a render of 250 ms where the browser neither
// painted nor answered.
func (p *Playground) drawHiddenPanel(ctx app.Context) {
	for _, tab := range dockTabs(true) {
		if !p.dockShown[tab.name] {
			p.drawDockPanel(tab.name)
			p.after(ctx, 0, p.drawHiddenPanel)
			return
		}
	}
}

func (p *Playground) drawDockPanel(tab string) {
	if p.dockShown == nil {
		p.dockShown = map[string]bool{}
	}
	p.dockShown[tab] = true
}

// inspectorPreset points the inspector's forms at the selection.
func (p *Playground) inspectorPreset() formPreset {
	preset := formPreset{Topic: p.selected.Topic, Seq: p.selectSeq}
	if p.selected.Kind == selectPartition {
		preset.Partition = strconv.Itoa(p.selected.Partition)
	}
	return preset
}

// downBrokers lists the brokers that are down, for the lanes.
func (p *Playground) downBrokers() []int {
	var down []int
	for _, b := range p.replicas.Brokers {
		if b.Down {
			down = append(down, b.ID)
		}
	}
	return down
}

// producedHere says where the produce form's last records went, while the
// last command is the form's.
func (p *Playground) producedHere() string {
	if p.landedFrom != produceControl {
		return ""
	}
	return p.landing.echo()
}

// lanesLanding is the landing the lanes mark: none for a link's last
// step, which the notes say (landingSaid).
func (p *Playground) lanesLanding() Landing {
	if p.landingSaid {
		return Landing{}
	}
	return p.landing
}

// noteEvents keeps what the page says about the last command: where its
// records landed and what it removed. Lanes that received records follow
// their newest again, so the learner sees them land.
func (p *Playground) noteEvents(events []core.Event) {
	p.landing, p.landingSaid, p.landedFrom = landingOf(events), false, "" // its high watermarks come with the next snapshot
	p.removal = removalOf(events)
	for _, at := range p.landing.Lanes {
		delete(p.views, laneKey(at.Topic, at.Partition))
	}
}

// animateRemovals keeps the records the last command removed from the
// drawn windows for a moment, drawn as leaving, then forgets them.
func (p *Playground) animateRemovals(ctx app.Context, before LogSnapshot) {
	p.removal.Ghosts = removedRecords(before, p.view)
	if len(p.removal.Ghosts) == 0 {
		return
	}
	p.removalUpdates++
	pending := p.removalUpdates
	p.after(ctx, removalAnimation, func(ctx app.Context) {
		if pending == p.removalUpdates {
			p.removal.Ghosts = nil
		}
	})
}

// removalAnimation is how long removed records stay drawn as leaving.
const removalAnimation = 1500 * time.Millisecond

// handleHistory moves in the session's history: undo, redo, seek, and
// bringing back the steps kept aside (core/scenario/session_branch.go).
func (p *Playground) handleHistory(ctx app.Context, a app.Action) {
	m, ok := a.Value.(historyMove)
	if !ok || p.session == nil {
		return
	}
	if !p.share.options.Present { // no timeline to keep in place
		holdWorkspaceHeight()
	}
	p.run(ctx, m.Control, func() error {
		p.landing, p.removal = Landing{}, Removal{}
		if err := p.moveInHistory(m); err != nil {
			return err
		}
		// The narration follows the timeline: the notes say what the
		// step the page now stands at did (the session keeps its events).
		p.noteEvents(p.session.Events())
		return nil
	})
	if m.Control == presentControl {
		// A presenter steps a key press at a time and may reload the
		// projected page at once: the address says the step now, not
		// after the debounce a burst of edits needs.
		p.writeURL(ctx)
	}
}

func (p *Playground) moveInHistory(m historyMove) error {
	switch m.Kind {
	case "undo":
		return p.session.Undo()
	case "redo":
		return p.session.Redo()
	case "seek":
		return p.session.Seek(m.Step)
	case "restore":
		return p.session.RestoreDiscarded()
	case "rules":
		from := p.session.Rules()
		if err := p.session.UseRules(m.Step); err != nil {
			return err
		}
		p.rulesFrom = from
		return nil
	}
	return fmt.Errorf("unknown history move %q", m.Kind)
}

// handleView moves a lane's window. It changes what is looked at, not the
// state, so it adds nothing to the script.
func (p *Playground) handleView(ctx app.Context, a app.Action) {
	v, ok := a.Value.(laneView)
	if !ok || p.session == nil {
		return
	}
	if p.views == nil {
		p.views = map[string]int64{}
	}
	if v.Offset == followTail {
		delete(p.views, laneKey(v.Topic, v.Partition))
	} else {
		p.views[laneKey(v.Topic, v.Partition)] = max(v.Offset, 0)
	}
	p.refresh()
}

// handlePlay starts or stops the clock. While it plays, every tick steps
// forward through the steps ahead of the position, if there are any, then
// applies "advance" by the speed in virtual seconds, so workloads produce
// and consume as time passes, and the script says so. Play thus never
// replaces a step; a read-only page stops at the end of its script.
func (p *Playground) handlePlay(ctx app.Context, a app.Action) {
	r, ok := a.Value.(playRequest)
	if !ok {
		return
	}
	if r.Speed > 0 {
		p.speed = r.Speed
	}
	if !r.Start && !r.Stop || r.Start == p.playing {
		return
	}
	p.playing = r.Start
	p.ticks++
	if p.playing {
		p.scheduleTick(ctx, p.ticks)
	}
}

// playTick is the real time between two steps of the clock while playing.
const playTick = time.Second

func (p *Playground) scheduleTick(ctx app.Context, tick int) {
	p.after(ctx, playTick, func(ctx app.Context) {
		if !p.playing || tick != p.ticks || p.session == nil {
			return
		}
		if p.playsForward(ctx) {
			p.scheduleTick(ctx, tick)
			return
		}
		if p.share.options.ReadOnly {
			// A read-only page shows its script; it never adds to it.
			p.playing = false
			return
		}
		line := fmt.Sprintf("%s %ds", scenario.CmdAdvance, p.speed)
		failed := false
		p.run(ctx, "timeline", func() error {
			err := p.applyLines(ctx, []string{line})
			failed = err != nil
			return err
		})
		if failed {
			p.playing = false
			return
		}
		p.scheduleTick(ctx, tick)
	})
}

// urlDebounce is how long the URL waits for the state to settle: a burst of
// commands rewrites it once, and the browser's history is not flooded.
const urlDebounce = 400 * time.Millisecond

// scheduleURLUpdate writes the session's link into the URL fragment once no
// command has come for urlDebounce. It replaces the history entry rather than
// adding one: back leaves the playground, as a learner expects.
func (p *Playground) scheduleURLUpdate(ctx app.Context) {
	p.postStep()
	p.share.unsaved = true
	p.urlUpdates++
	pending := p.urlUpdates
	p.after(ctx, urlDebounce, func(ctx app.Context) {
		if pending == p.urlUpdates {
			p.updateURL(ctx) // autosave.go: history, position and options, then autosave
		}
	})
}

// OnNav fires when the fragment changes (a pasted link, a lesson picked
// from the list, back and forward): the scenario it holds opens as a
// workspace of its own (autosave.go).
func (p *Playground) OnNav(ctx app.Context) {
	fragment := addressFragment(currentURL(ctx)) // lesson_page.go
	if p.ready && (fragment == p.link || fragment == "" && p.link == starterFragment()) {
		return // the page's own URL update, or the bare address the starter opened at
	}
	p.enterWorkspace(ctx, fragment)
	p.applyLink(fragment)
	p.playOnOpen(ctx)
	if p.ready {
		showFromTheTop(ctx)
	}
}

// showFromTheTop scrolls the picture's regions back to their tops once
// another scenario or lesson opens in the page: the stage kept the scroll
// of the lesson list the learner picked from, and the new lesson's lanes
// sat above its top (a new learner's walk). On a phone the page itself
// scrolls.
func showFromTheTop(ctx app.Context) {
	ctx.Defer(func(app.Context) {
		doc := app.Window().Get("document")
		for _, region := range []string{".stage", ".groups-column"} {
			if el := doc.Call("querySelector", region); el.Truthy() {
				el.Set("scrollTop", 0)
			}
		}
		app.Window().Call("scrollTo", 0, 0)
	})
}

// applyLink replays the scenario a link carries. A link that cannot be read
// leaves the empty scenario; a script that fails part way keeps the commands
// before the failing line. Either way the page says why and keeps working.
func (p *Playground) applyLink(link string) {
	if p.ready && link == p.link {
		return
	}
	p.link = link
	if p.ready {
		p.links++ // the tools' forms start afresh (fresh_form.go)
		p.closeInspector()
	}
	p.views, p.looks, p.landing, p.landingSaid, p.removal, p.rulesFrom = nil, picture.LookMemory{}, Landing{}, false, Removal{}, 0
	releaseWorkspaceHeight()
	defer func() {
		// The engine promises never to panic; this is the page's last line
		// of defence if it ever does, because a panic in wasm kills the page.
		if r := recover(); r != nil {
			p.session = scenario.NewYieldingSession()
			p.refresh()
			p.err = fmt.Sprintf("plog hit a bug while applying this scenario (please report it with the link): %v", r)
		}
	}()
	p.session, p.share.options, p.err = loadFragment(link)
	p.starterEnd = p.session.Position() // starter.go
	// The replay yields as it goes; the snapshot and the render that
	// follow each take a task of their own (a scenario of 10,000
	// partitions: 150 ms, then the render's).
	currentBrowser().NextTurn()
	p.openLesson(link)
	if p.lesson.current == nil && !p.starterShown() {
		// A shared scenario opens narrating the step it stands at, as a
		// seek does: the reader of a link sees what its last command did.
		// Its lanes still open at their first record (landingSaid). A
		// lesson's start and the starter say what they are instead.
		p.noteEvents(p.session.Events())
		p.landingSaid = true
	}
	p.takeLoop() // embed_bar.go
	msg := p.err
	p.refresh()
	currentBrowser().NextTurn()
	if msg != "" {
		p.err = msg
	}
	if p.ready {
		p.postStep() // a pasted link: the embedding page hears where the timeline is
	}
}

// Render lays the page out as one picture of the system, the height of
// the window: the masthead; the dock on the left (the lesson, the tools,
// the inspector); the brokers and the topics' lanes in the middle; the
// consumer groups on the right; the timeline docked at the bottom. Each
// region scrolls inside itself; the page does not. On a narrow screen the
// regions stack: lanes, groups, the dock, with the timeline docked.
func (p *Playground) Render() app.UI {
	var lines, discarded []string
	var lag []scenario.LagSample
	position, discardedAt, brokers, lagMaxMs := 0, 0, core.DefaultBrokers, int64(0)
	if p.session != nil {
		lines, position, discarded = p.session.Lines(), p.session.Position(), p.session.Discarded()
		discardedAt = p.session.DiscardedAt()
		lag = p.session.LagHistory()
		brokers, lagMaxMs = p.view.Brokers, p.view.ReplicaLagTimeMaxMs
	}
	tab := p.dockTab()
	p.drawDockPanel(tab)
	inspecting := p.selected.Kind != ""
	folded := p.toolsFolded()
	panel := tab // the panel shown: none while the tools are folded
	if folded {
		panel = ""
	}
	return app.Main().
		Class("playground").
		DataSet("ready", p.ready).
		DataSet("embed", p.share.options.Embed).DataSet("readonly", p.share.options.ReadOnly).
		DataSet("present", p.share.options.Present).
		Body(
			// The slots before the workspace are always drawn, empty and
			// hidden while they have nothing to say: go-app compares a
			// parent's children by their place, and an element coming or
			// going before the workspace would make the whole workspace
			// and the timeline anew (at ready, that was most of the render
			// that marks the page ready).
			app.If(p.share.options.Present, p.presenterBar()).
				ElseIf(p.share.options.Embed, p.embedBar()).
				Else(app.Div().Class("embed-bar-slot").Hidden(true)),
			app.Header().Class("masthead").Body(
				app.H1().Text("plog"),
				app.P().Class("tagline").Text("a playground for Kafka's partitioned log"),
				app.Span().Class("clock").DataSet("time-ms", p.view.TimeMs).
					Text("virtual time "+units.Duration(p.view.TimeMs)),
				p.lessonListButton(),
				&HelpButton{},
				&ThemeToggle{},
				presentButton(),
				p.shareMenu(),
			),
			p.openingNotice(),
			p.pageAlert(),
			p.unreadableNotice(), // autosave_unreadable.go
			app.Div().ID(workspaceID).Class("workspace").Body(
				app.Aside().Class("dock").Attr("data-dock", panel).DataSet("tools", toolsWord(folded)).Aria("label", "lesson and tools").Body(
					p.lessonPanel(),
					dockTabBar(tab, inspecting, folded, p.lesson.current != nil),
					dockPanel(dockProduce, panel, p.dockShown,
						&ProduceForm{Links: p.links, Topics: p.forms, Step: len(lines), Rules: p.rules(),
							Preset: formPreset{Topic: p.produceTo, Seq: p.produceSeq}, Producers: producerNames(p.view.Producers),
							Landed: p.producedHere()},
						&ProducerPanel{Links: p.links},
					),
					dockPanel(dockTopics, panel, p.dockShown, &TopicForm{Links: p.links}),
					dockPanel(dockTime, panel, p.dockShown,
						&TimeControls{Links: p.links},
						&WorkloadControls{Links: p.links, Topics: p.forms, Workloads: p.workloads(), ShareGroups: p.view.shareGroupNames(), Step: len(lines), Rules: p.rules()},
					),
					dockPanel(dockCluster, panel, p.dockShown, &BrokersForm{Links: p.links, Brokers: brokers, LagMaxMs: lagMaxMs}),
					dockPanel(dockInspector, panel, p.dockShown,
						&Inspector{Selected: p.selected, Preset: p.inspectorPreset(), Topic: p.selectedTopic(), Topics: p.forms,
							Brokers: p.replicas.Brokers, Lanes: p.replicas.Lanes, Groups: p.view.Groups, Lag: lag, Rules: p.rules(),
							ShareGroups: p.view.ShareGroups, ShareCompared: p.view.ShareCompared, Now: p.view.TimeMs},
					),
				),
				app.Div().Class("stage").Body(
					&BrokerStrip{Brokers: p.replicas.Brokers, LagMaxMs: p.replicas.LagMaxMs, Selected: p.selectedBroker()},
					// The producers on the left of the lanes, as the groups'
					// members are on their right: records travel left to
					// right, from who wrote them to who reads them.
					app.Div().Class("picture-row").Body(
						&ProducerColumn{Links: p.links, Producers: p.view.Producers, Groups: groupNames(p.view.Groups), Topics: p.forms,
							Workloads: producerWorkloads(p.workloads())},
						&TopicList{Topics: p.view.Topics, Ghosts: p.removal.Ghosts, Landing: p.lanesLanding(),
							Replicas: p.replicas.Lanes, Down: p.downBrokers(), Selected: p.selected,
							ShareGroups: p.view.ShareGroups, Now: p.view.TimeMs, HideSkew: p.lesson.hides(lesson.GiveawaySkew)},
					),
					// What the last command did, said under the lanes it
					// changed and kept in view at the picture's foot:
					// before the isolation view, which it covered when
					// both were taller than the stage.
					// It scrolls when long, so it takes the focus (to scroll
					// from the keyboard).
					app.Div().Class("stage-notes").Attr("role", "region").Aria("label", "what the last command did").TabIndex(0).Body(
						&ControlError{Control: shortcutControl},
						p.starterNote(),
						p.linkNote(),        // starter.go
						p.lessonStartNote(), // starter.go
						&LandingNote{Landing: p.landing},
						&ReadNote{Lines: p.landing.Reads},
						&MemberNote{Lines: p.landing.Members},
						&WireNote{Lines: p.landing.Wire},
						&RemovalNote{Removal: p.removal},
					),
					&IsolationView{Groups: p.view.Isolation},
					// Below the picture, in its scroll: the lesson being
					// written. The lesson list and the help open over the
					// page (lesson_list.go, help_panel.go), so that the
					// stage is the picture and its narration.
					p.lessonEditor(), // lesson_editor.go
				),
				p.lessonList(),
				&HelpPanel{},
				app.Div().Class("groups-column").Body(
					&GroupPanel{Links: p.links, Groups: p.view.Groups, Records: p.view.RecordCounts(), HideSkew: p.lesson.hides(lesson.GiveawaySkew), Selected: p.selected, ChartsOpen: p.chartsOpen,
						Share: &ShareGroupPanel{Links: p.links, Groups: p.view.ShareGroups, Topics: p.view.topicNames(), Now: p.view.TimeMs}},
				),
			),
			&Timeline{
				Lines:       lines,
				Position:    position,
				Discarded:   discarded,
				DiscardedAt: discardedAt,
				Playing:     p.playing,
				Presenting:  p.share.options.Present,
				Speed:       p.speed,
				Rules:       p.rules(),
				RulesFrom:   p.rulesFrom,
				Session:     p.commandLineSession(),
				Example:     p.view.commandExample(),
			},
		)
}

// openingNotice is what the page says while it replays the link's
// scenario (a long one takes seconds: scenario.LoadYielding); once ready,
// an empty, hidden slot with no role.
func (p *Playground) openingNotice() app.UI {
	notice := app.P().Class("opening").Hidden(p.ready)
	if p.ready {
		return notice
	}
	return notice.Attr("role", "status").Text("Opening the scenario…")
}

// pageAlert says what went wrong with the page as a whole (a link that
// could not be opened, a bug); without one, an empty, hidden slot with no
// role.
func (p *Playground) pageAlert() app.UI {
	alert := app.P().Class("alert").Hidden(p.err == "")
	if p.err == "" {
		return alert
	}
	return alert.Aria("live", "assertive").Attr("role", "alert").Text(p.err)
}

// selectedBroker is the broker the inspector shows, 0 for none.
// selectedTopic is the topic the inspector shows, whole: the selected
// topic, or the selected partition's; the zero value for anything else.
func (p *Playground) selectedTopic() TopicSnapshot {
	if p.selected.Kind != selectTopic && p.selected.Kind != selectPartition {
		return TopicSnapshot{}
	}
	for _, t := range p.view.Topics {
		if t.Name == p.selected.Topic {
			return t
		}
	}
	return TopicSnapshot{}
}

func (p *Playground) selectedBroker() int {
	if p.selected.Kind != selectBroker {
		return 0
	}
	return p.selected.Broker
}

// rules is the version of the rules the scenario runs under.
func (p *Playground) rules() int {
	if p.session == nil {
		return core.LatestRules
	}
	return p.session.Rules()
}

// workloads lists the running workloads, for their controls.
func (p *Playground) workloads() []scenario.Workload {
	if p.session == nil {
		return nil
	}
	return p.session.Workloads()
}
