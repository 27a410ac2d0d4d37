// Command wasmsize says which packages the page's wasm is made of: it builds
// ./wasm twice for GOOS=js GOARCH=wasm, as `make wasm` does (-s -w) and with
// its symbols, slims both as the site does (internal/gowasm), reads each
// function's body and name from the latter, and
// adds them up by package. Each package's share of the brotli size is
// estimated by compressing its functions' code alone, scaled so that the
// shares add up to the wasm's brotli size as the site serves it.
//
//	go run ./cmd/wasmsize            # a table of the largest packages
//	go run ./cmd/wasmsize -top 60    # more of them
//	go run ./cmd/wasmsize -funcs 40  # and the 40 largest functions
//
// The data section (strings, type descriptors, the runtime's function
// tables) carries no names in a wasm, so it is one row.
package main

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"plog/internal/gowasm"

	"github.com/andybalholm/brotli"
)

// brotliLevel is the level the site generator compresses the wasm with by
// default, as the tests and make serve build the site; make dist compresses
// at 11, some 13% smaller, taking minutes here rather than seconds
// (serve.go).
const brotliLevel = 9

func main() {
	log.SetFlags(0)
	log.SetPrefix("wasmsize: ")
	top := flag.Int("top", 30, "how many packages to list one by one; the rest are summed")
	pkg := flag.String("pkg", "./wasm", "the main package to build for GOOS=js GOARCH=wasm")
	funcs := flag.Int("funcs", 0, "how many of the largest functions to list, by their code as built")
	flag.Parse()
	os.Setenv("GOOS", "js")
	os.Setenv("GOARCH", "wasm")
	dir, err := os.MkdirTemp("", "plog-wasmsize-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	stripped, symbols := filepath.Join(dir, "app.wasm"), filepath.Join(dir, "app-symbols.wasm")
	for _, b := range []struct{ out, ldflags string }{{stripped, "-s -w"}, {symbols, ""}} {
		cmd := exec.Command("go", "build", "-ldflags", b.ldflags, "-o", b.out, *pkg)
		if out, err := cmd.CombinedOutput(); err != nil {
			log.Fatalf("go build -ldflags %q %s: %v\n%s", b.ldflags, *pkg, err, out)
		}
	}
	deps, err := exec.Command("go", "list", "-deps", *pkg).Output()
	if err != nil {
		log.Fatalf("go list -deps %s: %v", *pkg, err)
	}
	r, err := measure(stripped, symbols, newPackageNames(strings.Fields(string(deps))))
	if err != nil {
		log.Fatal(err)
	}
	r.write(os.Stdout, *top)
	r.writeFunctions(os.Stdout, *funcs)
}

// report is the wasm's size by package.
type report struct {
	raw, brotli int   // the stripped wasm, as built and with brotli
	rows        []row // packages, largest first, then the data section
	data        row
	other       row // sections other than code and data (types, imports, exports, ...)
	functions   []function
}

type row struct {
	name      string
	functions int
	raw       int     // bytes of code (or of the section)
	brotli    float64 // estimated share of the brotli size
}

// measure reads the stripped wasm's sizes and the symbol build's functions,
// both slimmed as the site serves them (internal/gowasm).
func measure(stripped, symbols string, names packageNames) (*report, error) {
	raw, err := readSlim(stripped)
	if err != nil {
		return nil, err
	}
	full, err := compressedSize(raw)
	if err != nil {
		return nil, err
	}
	b, err := readSlim(symbols)
	if err != nil {
		return nil, err
	}
	m, err := parseModule(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", symbols, err)
	}
	code := map[string]*bytes.Buffer{}
	counts := map[string]int{}
	for _, f := range m.functions {
		p := names.of(f.name)
		if code[p] == nil {
			code[p] = &bytes.Buffer{}
		}
		code[p].Write(f.body)
		counts[p]++
	}
	r := &report{raw: len(raw), brotli: full, functions: m.functions}
	var estimated float64
	for p, buf := range code {
		n, err := compressedSize(buf.Bytes())
		if err != nil {
			return nil, err
		}
		r.rows = append(r.rows, row{name: p, functions: counts[p], raw: buf.Len(), brotli: float64(n)})
		estimated += float64(n)
	}
	n, err := compressedSize(m.data)
	if err != nil {
		return nil, err
	}
	r.data = row{name: "data section (strings, type descriptors, the runtime's tables)", raw: len(m.data), brotli: float64(n)}
	estimated += float64(n)
	// What is neither code nor data: the sections the stripped build keeps
	// besides them, whose brotli share is what remains.
	codeBytes := 0
	for _, f := range m.functions {
		codeBytes += len(f.body)
	}
	r.other = row{name: "other sections (types, imports, exports, headers)", raw: len(raw) - codeBytes - len(m.data)}
	// Compressing each package alone costs a little more than compressing
	// them together: scale the estimates to the real total, leaving the
	// other sections their raw share.
	otherShare := float64(r.other.raw) / float64(len(raw)) * float64(full)
	scale := (float64(full) - otherShare) / estimated
	for i := range r.rows {
		r.rows[i].brotli *= scale
	}
	r.data.brotli *= scale
	r.other.brotli = otherShare
	sort.Slice(r.rows, func(i, j int) bool {
		if r.rows[i].brotli != r.rows[j].brotli {
			return r.rows[i].brotli > r.rows[j].brotli
		}
		return r.rows[i].name < r.rows[j].name
	})
	return r, nil
}

func readSlim(name string) ([]byte, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	slim, err := gowasm.Slim(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return slim, nil
}

func compressedSize(b []byte) (int, error) {
	var buf bytes.Buffer
	w := brotli.NewWriterLevel(&buf, brotliLevel)
	if _, err := w.Write(b); err != nil {
		return 0, err
	}
	err := w.Close()
	return buf.Len(), err
}

// packageNames maps the function names of a wasm to their packages' import
// paths. The Go linker writes each symbol's name with every character but
// letters, digits, '_' and '.' replaced by '_' (nameRegexp in
// cmd/link/internal/wasm/asm.go), so "plog/core.(*Log).Append" is named
// "plog_core.__Log_.Append"; a function belongs to the package whose name,
// spelled so, is the longest that starts it and is followed by a dot.
type packageNames map[string]string // spelled as in the wasm → import path

func newPackageNames(paths []string) packageNames {
	names := packageNames{"main": "main"}
	for _, p := range paths {
		names[linkerSpelling(p)] = p
	}
	return names
}

func linkerSpelling(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '_' || (r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
			return r
		}
		return '_'
	}, s)
}

// of is the import path of the package of a function, or "<linker>" for
// what the linker makes itself (go:buildid, type:.eq.…, the wasm's glue).
func (n packageNames) of(function string) string {
	best := ""
	for i := 0; i < len(function); i++ {
		if function[i] != '.' {
			continue
		}
		if p, ok := n[function[:i]]; ok && len(p) >= len(best) {
			best = p
		}
	}
	if best == "" {
		return "<linker>"
	}
	return best
}

// group names the part of the build a package comes from.
func group(pkg string) string {
	switch {
	case pkg == "plog" || strings.HasPrefix(pkg, "plog/") || pkg == "main":
		return "plog"
	case strings.HasPrefix(pkg, "github.com/maxence-charriere/go-app/"):
		return "go-app"
	case strings.Contains(strings.SplitN(pkg, "/", 2)[0], "."):
		return "other modules"
	case pkg == "<linker>":
		return "linker"
	default:
		return "Go runtime and standard library"
	}
}

func mb(n float64) string { return fmt.Sprintf("%.2f MB", n/1e6) }
func kb(n float64) string { return fmt.Sprintf("%.0f KB", n/1e3) }

// write prints the report as Markdown tables.
func (r *report) write(w io.Writer, top int) {
	fmt.Fprintf(w, "app.wasm as the site serves it, built as `make wasm` does and slimmed (internal/gowasm): %s, %s with brotli (level %d, as make serve serves it; make dist's level 11 is some 13%% smaller).\n\n", mb(float64(r.raw)), mb(float64(r.brotli)), brotliLevel)
	groups := map[string]*row{}
	var order []string
	for _, p := range r.rows {
		g := group(p.name)
		if groups[g] == nil {
			groups[g] = &row{name: g}
			order = append(order, g)
		}
		groups[g].functions += p.functions
		groups[g].raw += p.raw
		groups[g].brotli += p.brotli
	}
	sort.Slice(order, func(i, j int) bool { return groups[order[i]].brotli > groups[order[j]].brotli })
	fmt.Fprintf(w, "| part of the build | functions | code | brotli (estimated) | share |\n|---|---|---|---|---|\n")
	for _, g := range order {
		r.line(w, *groups[g], false)
	}
	r.line(w, r.data, false)
	r.line(w, r.other, false)
	fmt.Fprintf(w, "\n| package | functions | code | brotli (estimated) | share |\n|---|---|---|---|---|\n")
	rest := row{name: "the rest"}
	for i, p := range r.rows {
		if i < top {
			r.line(w, p, true)
			continue
		}
		rest.functions += p.functions
		rest.raw += p.raw
		rest.brotli += p.brotli
	}
	if rest.raw > 0 {
		rest.name = fmt.Sprintf("the other %d packages", len(r.rows)-top)
		r.line(w, rest, true)
	}
}

func (r *report) line(w io.Writer, x row, code bool) {
	functions := "–"
	if x.functions > 0 {
		functions = fmt.Sprint(x.functions)
	}
	name := x.name
	if code && !strings.HasPrefix(name, "the other") {
		name = "`" + name + "`"
	}
	fmt.Fprintf(w, "| %s | %s | %s | %s | %.1f%% |\n", name, functions, kb(float64(x.raw)), kb(x.brotli), 100*x.brotli/float64(r.brotli))
}

// writeFunctions lists the n largest functions by their code as built, the
// linker's spelling of their names.
func (r *report) writeFunctions(w io.Writer, n int) {
	if n <= 0 {
		return
	}
	fs := slices.SortedFunc(slices.Values(r.functions), func(a, b function) int { return cmp.Compare(len(b.body), len(a.body)) })
	fmt.Fprintf(w, "\n| function | code |\n|---|---|\n")
	for _, f := range fs[:min(n, len(fs))] {
		fmt.Fprintf(w, "| `%s` | %s |\n", f.name, kb(float64(len(f.body))))
	}
}
