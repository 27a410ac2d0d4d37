package core

import "testing"

// FuzzOperations decodes the input into a sequence of random operations. No
// input may panic the engine; an operation that fails or only reads must
// leave the state exactly as it was; every invariant must hold after each
// step.
func FuzzOperations(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 5, 2, 5, 3, 3, 6, 0, 0})
	f.Add([]byte("create orders; produce keyed; advance; truncate; compact; add partitions"))
	f.Add([]byte{1, 0, 0, 0, 2, 2, 5, 1, 0, 1, 2, 1, 0, 1, 0, 0, 7, 1, 0, 5, 4, 8, 1, 0, 5, 1, 7, 1, 0, 7, 1, 0, 7, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			data = data[:4096]
		}
		l, sh := newOpsLog(int64(len(data)))
		c := &bytesChooser{data: data}
		for i := 0; !c.done(); i++ {
			what, _, broken := step(l, sh, c, i)
			if broken != nil {
				t.Fatalf("step %d, %s: %v", i, what, broken)
			}
		}
	})
}
