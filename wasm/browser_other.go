//go:build !js || !wasm

package main

import plog "plog/app"

// newBrowser natively is the page's in-memory stand-in: the wasm's main
// does nothing outside a browser, but it must compile everywhere.
func newBrowser() plog.Browser { return plog.NewMemoryBrowser() }
