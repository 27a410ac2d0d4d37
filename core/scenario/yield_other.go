//go:build !js

package scenario

import "runtime"

// yieldToBrowser lets the other goroutines run: natively there is no
// browser to wait for (yield_js.go).
func yieldToBrowser() { runtime.Gosched() }
