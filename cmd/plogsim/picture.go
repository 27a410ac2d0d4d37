package main

import (
	"flag"
	"fmt"
	"io"

	"plog/core/scenario"
	"plog/picture"
)

// drawPicture writes the SVG picture of a scenario at a step, or with
// --from and --to an animated SVG of a range of steps: the pictures the
// page's Share dialog downloads (package picture draws both), for a teacher
// who builds slides from scripts.
func drawPicture(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plogsim picture", flag.ContinueOnError)
	fs.SetOutput(stderr)
	at := fs.Int("at", -1, "the step to draw: how many steps are applied (all by default)")
	link := fs.String("link", "", "read the scenario from a link: a page's address or its fragment")
	title := fs.String("title", "", "a heading for the picture")
	from := fs.Int("from", -1, "animate the steps from this one…")
	to := fs.Int("to", -1, "…to this one, each shown in turn")
	files, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	src, code := chooseSource("plogsim picture", usage, *link, files, stdin, stderr)
	if code != 0 {
		return code
	}
	if !src.stepAsked(fs, "plogsim picture", at, stderr) {
		return 2
	}
	s, err := scenario.Load(src.text)
	if err != nil {
		return report(stderr, src.name, err)
	}
	if *at > s.Len() {
		fmt.Fprintf(stderr, "plogsim picture: step %d asked for, but the scenario has %d steps\n", *at, s.Len())
		return 2
	}
	if flagSet(fs, "from") || flagSet(fs, "to") {
		svg, err := picture.AnimateSteps(s, *from, *to, *title)
		if err != nil {
			fmt.Fprintf(stderr, "plogsim picture: %v\n", err)
			return 2
		}
		fmt.Fprint(stdout, svg)
		return 0
	}
	if *at >= 0 {
		if err := s.Seek(*at); err != nil {
			return report(stderr, src.name, err)
		}
	}
	fmt.Fprint(stdout, picture.SVG(picture.At(s, *title)))
	return 0
}
