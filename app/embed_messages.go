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
//	lesson  the name of the lesson the page runs (lesson= in the link), "" when none
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
	step, steps := p.session.Position(), p.session.Len()
	p.share.postedStep, p.share.postedSteps = step, steps
	currentBrowser().PostToParent(parentMessage(kind, step, steps, p.lesson.name()))
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
