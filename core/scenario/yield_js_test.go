//go:build js

package scenario

import (
	"runtime"
	"syscall/js"
	"testing"
	"time"
)

// A yield lets a browser task run even while another goroutine keeps the
// Go scheduler busy past the moment a sleep would have woken: the case of
// the garbage collector's idle worker, which made a 1 ms sleep a no-op for
// the page.
func TestYieldToBrowserLetsATaskOfTheBrowserRun(t *testing.T) {
	ran := false
	mark := js.FuncOf(func(js.Value, []js.Value) any { ran = true; return nil })
	defer mark.Release()
	js.Global().Call("setTimeout", mark, 0)
	busyUntil := time.Now().Add(30 * time.Millisecond)
	go func() {
		for time.Now().Before(busyUntil) {
			runtime.Gosched()
		}
	}()
	runtime.Gosched() // the busy goroutine starts
	yieldToBrowser()
	if !ran {
		t.Error("the yield returned before the browser's timer ran")
	}
}
