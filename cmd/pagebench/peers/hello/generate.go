//go:build !wasm

package main

import (
	"log"
	"os"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// generate writes the static site into the directory named on the
// command line: go-app's handler is built outside the browser only
// (third_party/go-app/PLOG.md).
func generate() {
	if len(os.Args) != 2 {
		log.Fatal("usage: hello DIR")
	}
	h := &app.Handler{Name: "hello", ShortName: "hello", Title: "Hello", Description: "go-app's hello, plog's peer in make bench",
		// pagebench writes it: go-app's default is none.
		Icon: app.Icon{Default: "/web/icon.svg", SVG: "/web/icon.svg"}}
	if err := app.GenerateStaticWebsite(os.Args[1], h); err != nil {
		log.Fatal(err)
	}
}
