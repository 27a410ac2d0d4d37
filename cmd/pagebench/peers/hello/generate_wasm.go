//go:build wasm

package main

// The page never gets past app.RunWhenOnBrowser.
func generate() {}
