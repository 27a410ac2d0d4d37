package app

// Messages to the embedding page.
//
// A page that embeds plog in an iframe hears from it through postMessage.
// Every message is a plain object:
//
//	{source: "plog", type: "ready", step: 3, steps: 9, lesson: ""}
//
//	source  always "plog": tells these messages from others on the window
//	type    "ready"   the scenario from the URL is applied (once per load)
//	        "step"    the timeline moved: a command, undo, redo, seek, a tick of play
//	        "solved"  the learner reached the goal of the lesson
//	step    the timeline position: how many steps of the script are applied
//	steps   how many steps the script holds
//	lesson  the name of the lesson the page runs, "" when none: a built-in
//	        lesson's (lesson= in the link), or a lesson file's name: line
//
// A "solved" message says which lesson, and how, so that a course page can
// keep a proof that `plogsim lesson grade` checks from the link alone:
//
//	lessonId  the lesson's id, 16 hex digits of its file's digest: an
//	          edited lesson has another (plogsim lesson grade prints it)
//	link      the page's fragment that solved it, "#v1.…": the learner's
//	          steps, from the lesson's start, up to the step shown, and for
//	          a built-in lesson "&lesson=NAME"
//
// Listen for them with:
//
//	window.addEventListener("message", e => {
//	  if (e.data && e.data.source === "plog") console.log(e.data.type, e.data.step, e.data.steps);
//	});
//
// One more message tells the embedding page how tall the frame's content
// is, so that it can size the iframe (web/static/embed-height.js posts it,
// once the page is ready and whenever the height moves by more than a few
// pixels):
//
//	{source: "plog", type: "height", height: 612}
//
//	height  the content's natural height in CSS pixels, a whole number:
//	        the regions that scroll inside a short frame counted whole
//
// The page posts with target origin "*": any site may embed it, and the
// messages carry nothing the embedding page did not put in the frame's URL.
// A page that is not in a frame posts nothing.

// Message types posted to the embedding page.
const (
	messageReady  = "ready"
	messageStep   = "step"
	messageSolved = "solved"
)

// parentMessage is one message to the embedding page, in the documented form.
func parentMessage(kind string, step, steps int, lesson string) map[string]any {
	return map[string]any{"source": "plog", "type": kind, "step": step, "steps": steps, "lesson": lesson}
}

// postToParent tells the embedding page where the timeline is.
func (p *Playground) postToParent(kind string) {
	if p.session == nil {
		return
	}
	currentBrowser().PostToParent(p.parentMessage(kind))
}

// parentMessage is the message of a kind about the page as it is.
func (p *Playground) parentMessage(kind string) map[string]any {
	step, steps := p.session.Position(), p.session.Len()
	p.share.postedStep, p.share.postedSteps = step, steps
	name := ""
	if l := p.lesson.current; l != nil {
		name = l.Name
	}
	msg := parentMessage(kind, step, steps, name)
	if l := p.lesson.current; l != nil && kind == messageSolved {
		// The steps that solved it, without the lesson file a lesson link
		// would add: the id says which lesson.
		o := linkOptions{}
		if !p.lesson.fromLink() {
			o.Lesson = p.lesson.ref
		}
		lines := p.session.Lines()[:step]
		if fragment, err := fragmentOf(lines, len(lines), p.session.Rules(), o); err == nil {
			msg["link"] = "#" + fragment
		}
		msg["lessonId"] = l.ID
	}
	return msg
}

// postStep tells the embedding page the timeline moved, when it did.
func (p *Playground) postStep() {
	if p.session == nil || (p.session.Position() == p.share.postedStep && p.session.Len() == p.share.postedSteps) {
		return
	}
	p.postToParent(messageStep)
}

// postSolved tells the embedding page the learner solved the lesson. The
// lesson panel calls it when the lesson's goal is met.
func (p *Playground) postSolved() {
	p.postToParent(messageSolved)
}
