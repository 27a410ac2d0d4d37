package scenario

import "runtime"

// LoadYielding is Load that lets the other goroutines run between
// commands; the page opens links with it. In the browser the wasm has one
// thread, and the garbage collector's worker completes a cycle only when
// the goroutine that allocates yields: a link of a million records
// replayed without a pause grows the heap, which wasm never gives back, to
// about 450 MB instead of 170 MB, and takes longer. Yielding changes
// nothing else: the session is Load's, and so is the error.
func LoadYielding(script string) (*Session, error) {
	s := NewSession()
	err := eachCommand(script, func(c Command) error {
		if err := s.applyCommand(c); err != nil {
			return err
		}
		runtime.Gosched()
		return nil
	})
	return s, err
}
