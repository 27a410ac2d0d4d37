package scenario

import (
	"math"
	"sort"
)

// The zipf key distribution needs k^-s for a real exponent s. The standard
// library's math.Pow, Exp and Log use assembly on amd64 and pure Go in
// WebAssembly, and may differ in the last bit; a key picked near a boundary
// of the cumulative table could then differ between the CLI and the page.
// So the weights are computed here with + - * / only, which IEEE 754 defines
// exactly on every platform.

// ln2 is the float64 nearest to the natural logarithm of 2.
const ln2 = 0.693147180559945309417232121458176568

// detLog returns the natural logarithm of x >= 1.
func detLog(x float64) float64 {
	frac, exp := math.Frexp(x) // x = frac * 2^exp, frac in [0.5, 1)
	m := frac * 2              // m in [1, 2)
	e := float64(exp - 1)
	// ln(m) = 2 atanh(z) = 2 (z + z^3/3 + z^5/5 + ...), z = (m-1)/(m+1) < 1/3.
	z := (m - 1) / (m + 1)
	z2 := z * z
	sum, term := 0.0, z
	for i := 1; i < 80; i += 2 {
		sum += term / float64(i)
		term *= z2
	}
	return e*ln2 + 2*sum
}

// detExp returns e^y for y <= 0.
func detExp(y float64) float64 {
	// y = n ln2 + r with r in [0, ln2): e^y = 2^n e^r.
	n := math.Floor(y / ln2)
	r := y - n*ln2
	sum, term := 1.0, 1.0
	for i := 1; i < 30; i++ {
		term *= r / float64(i)
		sum += term
	}
	return math.Ldexp(sum, int(n))
}

// zipfTable is the cumulative distribution of ranks 1..n with weight k^-s.
// It is immutable once built, so clones of a workload share it.
type zipfTable struct {
	cumulative []float64
}

// newZipfTable builds the table of n ranks, calling pause (when not nil)
// every zipfPauseKeys ranks: a table of 100,000 ranks takes about 60 ms in
// the browser, too long to add to the work before it without a pause.
func newZipfTable(n int, s float64, pause func()) *zipfTable {
	t := &zipfTable{cumulative: make([]float64, n)}
	total := 0.0
	for k := 1; k <= n; k++ {
		total += detExp(-s * detLog(float64(k)))
		t.cumulative[k-1] = total
		if pause != nil && k%zipfPauseKeys == 0 {
			pause()
		}
	}
	return t
}

// zipfPauseKeys is how many ranks newZipfTable computes between two calls
// of its pause: a few milliseconds in the browser.
const zipfPauseKeys = 4096

// rank maps u in [0, 1) to a rank from 0 (the most frequent key) to n-1.
func (t *zipfTable) rank(u float64) int {
	target := u * t.cumulative[len(t.cumulative)-1]
	i := sort.SearchFloat64s(t.cumulative, target)
	// SearchFloat64s finds the first cumulative >= target; a draw exactly
	// on a boundary belongs to the next rank.
	if i < len(t.cumulative)-1 && t.cumulative[i] == target {
		i++
	}
	return min(i, len(t.cumulative)-1)
}
