//go:build js

package scenario

import "syscall/js"

// yieldToBrowser returns once the browser has run a task of its own (input,
// a paint, a timer). A time.Sleep does not promise that: the Go scheduler
// goes back to the browser only when no goroutine can run, and a sleep's
// timer that expires while another goroutine runs (the garbage collector's
// idle worker, the page's own) wakes the sleeper in the same task, so a
// replay that slept every 50 ms still held the main thread for 400 ms.
// Waiting on the browser's own timer makes the task end.
func yieldToBrowser() {
	resumed := make(chan struct{})
	wake := js.FuncOf(func(js.Value, []js.Value) any {
		close(resumed)
		return nil
	})
	defer wake.Release()
	js.Global().Call("setTimeout", wake, 0)
	<-resumed
}
