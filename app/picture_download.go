package app

import (
	"fmt"
	"strconv"
	"strings"

	"plog/picture"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The picture of the step the page shows, for a teacher's slides and
// handouts: the Share dialog offers it as an SVG and as a PNG at twice its
// size (a projector's slides want the pixels), drawn by package picture,
// which plogsim picture draws with too.

// pictureAction asks the page for the picture of its step (a pictureRequest).
const pictureAction = "picture"

// pictureControl names the picture's errors.
const pictureControl = "picture"

// pictureRequest is a picture asked for: its scale, 0 for the SVG; or,
// with Animate, an animated SVG of the steps From to To.
type pictureRequest struct {
	Scale    int
	Animate  bool
	From, To int
}

// pngScale is the PNG's size over the picture's: twice, for projectors.
const pngScale = 2

// pictureName is the file name of the picture of a step.
func pictureName(step, scale int) string {
	if scale == 0 {
		return fmt.Sprintf("plog-step-%d.svg", step)
	}
	return fmt.Sprintf("plog-step-%d@%dx.png", step, scale)
}

// animationName is the file name of an animation of steps.
func animationName(from, to int) string {
	return fmt.Sprintf("plog-steps-%d-%d.svg", from, to)
}

// handlePicture draws the picture of the step the page shows and offers it
// as a file.
func (p *Playground) handlePicture(ctx app.Context, a app.Action) {
	req, ok := a.Value.(pictureRequest)
	if !ok || p.session == nil {
		return
	}
	setControlError(ctx, ControlAlert{})
	if req.Animate {
		svg, err := picture.AnimateSteps(p.session, req.From, req.To, p.lesson.title())
		if err == nil {
			err = currentBrowser().DownloadPicture(animationName(req.From, req.To), svg, 0)
		}
		if err != nil {
			setControlError(ctx, ControlAlert{Control: pictureControl, Message: "The animation did not download: " + err.Error()})
		}
		return
	}
	svg := picture.SVG(picture.At(p.session, p.lesson.title()))
	if err := currentBrowser().DownloadPicture(pictureName(p.session.Position(), req.Scale), svg, req.Scale); err != nil {
		setControlError(ctx, ControlAlert{Control: pictureControl, Message: "The picture did not download: " + err.Error()})
	}
}

// OnMount offers to animate the steps that led here (or, at the start,
// the first ones), six of them: a learner who clears the boxes sees them
// empty, not refilled.
func (d *ShareDialog) OnMount(app.Context) {
	to := d.Position
	if to == 0 {
		to = min(len(d.Lines), picture.MaxFrames-1)
	}
	d.animFrom, d.animTo = strconv.Itoa(max(0, to-5)), strconv.Itoa(to)
}

// pictureRow is the Share dialog's offer of the picture.
func (d *ShareDialog) pictureRow() app.UI {
	ask := func(scale int) app.EventHandler {
		return func(ctx app.Context, e app.Event) {
			ctx.NewActionWithValue(pictureAction, pictureRequest{Scale: scale})
			d.statusFor = pictureControl
			d.status = "The download of " + pictureName(d.Position, scale) + " has started."
		}
	}
	animate := func(ctx app.Context, e app.Event) {
		from, errFrom := strconv.Atoi(strings.TrimSpace(d.animFrom))
		to, errTo := strconv.Atoi(strings.TrimSpace(d.animTo))
		if errFrom != nil || errTo != nil {
			setControlError(ctx, ControlAlert{Control: pictureControl, Message: "Animate steps from one number to another."})
			return
		}
		ctx.NewActionWithValue(pictureAction, pictureRequest{Animate: true, From: from, To: to})
		d.statusFor = pictureControl
		d.status = "The download of " + animationName(from, to) + " has started."
	}
	return app.Div().Body(
		app.H3().Text("A picture of this step"),
		app.Div().Class("row").Body(
			app.Button().Type("button").ID("download-svg").OnClick(ask(0)).Text("Download SVG"),
			app.Button().Type("button").ID("download-png").OnClick(ask(pngScale)).Text(fmt.Sprintf("Download PNG (%d×)", pngScale)),
		),
		app.P().Class("hint").Text("For slides and handouts: the lanes, their records and the groups at this step. plogsim picture draws the same from a scenario file."),
		app.Div().Class("row", "picture-animation").Body(
			field("animate-from", "animate steps from", numberInput("animate-from", &d.animFrom, &d.Compo)),
			field("animate-to", fmt.Sprintf("to (of %d)", len(d.Lines)), numberInput("animate-to", &d.animTo, &d.Compo)),
			app.Button().Type("button").ID("download-animation").OnClick(animate).Text("Download animated SVG"),
		),
		app.P().Class("hint").Text(fmt.Sprintf("Each step for %d seconds, over and over, at most %d steps: it plays in a browser and in a web page; a slide tool that takes SVG as a still image shows its first step.", picture.FrameSeconds, picture.MaxFrames)),
		&ControlError{Control: pictureControl},
		d.statusOf(pictureControl),
	)
}
