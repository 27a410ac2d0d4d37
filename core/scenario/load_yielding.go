package scenario

import (
	"runtime"
	"sync/atomic"
	"time"
)

// LoadYielding is Load that lets the other goroutines run between
// commands, and the browser between commands and within a long one; the
// page opens links with it. In the browser the wasm has one thread, and the
// garbage collector's worker completes a cycle only when the goroutine that
// allocates yields: a link of a million records replayed without a pause
// grows the heap, which wasm never gives back, to about 450 MB instead of
// 170 MB, and takes longer. And the browser handles input and paints only
// while the wasm waits: a scenario near MaxWork takes seconds to replay, so
// every yieldEvery of work the load sleeps a moment, and the tab keeps
// answering. Yielding changes nothing else: the session is Load's, and so
// is the error; its later moves (seek, undo) yield the same way.
func LoadYielding(script string) (*Session, error) {
	s := NewYieldingSession()
	err := eachCommand(script, func(c Command) error {
		if err := s.applyCommand(c); err != nil {
			return err
		}
		runtime.Gosched()
		s.pause()
		return nil
	})
	return s, err
}

// NewYieldingSession is NewSession for the page: every command applied to
// it, and every move in its history, lets the browser run every yieldEvery
// inside a long command (a learner's advance of a busy workload, a produce
// that retries), as LoadYielding does.
func NewYieldingSession() *Session {
	s := NewSession()
	s.pause = pace
	return s
}

// lastYield is when pace last let the browser run, in nanoseconds since
// paceEpoch: the page has one thread, so every piece of work on it (a link
// read, then replayed) shares one clock.
var lastYield atomic.Int64

// paceEpoch is what lastYield counts from.
var paceEpoch = time.Now()

// pace lets the browser run (yieldToBrowser) when yieldEvery has passed
// since it last did, and does nothing otherwise.
func pace() {
	now := int64(time.Since(paceEpoch))
	if now-lastYield.Load() >= int64(yieldEvery) {
		yieldToBrowser()
		lastYield.Store(int64(time.Since(paceEpoch)))
	}
}

// yieldEvery is the longest LoadYielding works without letting the
// browser run.
const yieldEvery = 50 * time.Millisecond
