package gowasm

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// buildProgram builds testdata/program for GOOS=js GOARCH=wasm as the site's
// wasm is built (-s -w).
func buildProgram(t *testing.T) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "program.wasm")
	if err := Build("./testdata/program", out, "-s -w"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runWasm runs a wasm under Node with the toolchain's wasm_exec, as make
// test-wasm runs the engine's tests.
func runWasm(t *testing.T, wasm []byte, args ...string) (stdout, stderr string, exitErr error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.wasm")
	if err := os.WriteFile(path, wasm, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, err := ToolchainFile("go_js_wasm_exec")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{path}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

func TestSlimmedProgramRunsAndNamesItsPanic(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node runs the wasm (make test-wasm needs it too): ", err)
	}
	original := buildProgram(t)
	slim, err := Slim(original)
	if err != nil {
		t.Fatal(err)
	}
	if len(slim) == 0 || bytes.Equal(slim, original) {
		t.Fatal("Slim changed nothing")
	}

	want, _, err := runWasm(t, original)
	if err != nil {
		t.Fatalf("the original program: %v", err)
	}
	got, stderr, err := runWasm(t, slim)
	if err != nil {
		t.Fatalf("the slimmed program failed: %v\n%s", err, stderr)
	}
	if got != want || !strings.Contains(got, "recovered assignment to entry in nil map") {
		t.Fatalf("the slimmed program printed\n%s\nthe original\n%s", got, want)
	}

	_, before, _ := runWasm(t, original, "panic")
	_, after, err := runWasm(t, slim, "panic")
	if err == nil {
		t.Fatal("the slimmed program did not fail on its panic")
	}
	if !strings.Contains(before, "main.go:") {
		t.Fatalf("the original's traceback has no file and line:\n%s", before)
	}
	for _, want := range []string{"panic: boom", "main.boom(", "main.main("} {
		if !strings.Contains(after, want) {
			t.Errorf("the slimmed traceback lacks %q:\n%s", want, after)
		}
	}
	if strings.Contains(after, "main.go:") || !strings.Contains(after, "?:0") {
		t.Errorf("the slimmed traceback still has files and lines:\n%s", after)
	}
}

func TestSlimTwiceIsSlimOnce(t *testing.T) {
	once, err := Slim(buildProgram(t))
	if err != nil {
		t.Fatal(err)
	}
	twice, err := Slim(once)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(once, twice) {
		t.Fatal("slimming a slimmed wasm changed it")
	}
}

// module writes a WebAssembly binary of the given sections.
func module(sections ...Section) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range sections {
		b = AppendSection(b, s.ID, s.Payload)
	}
	return b
}

// dataSection is a data section of one segment at address 4096.
func dataSection(data []byte) Section {
	p := []byte{1, 0, 0x41}
	p = appendInt(p, 4096)
	p = append(p, 0x0b)
	p = binary.AppendUvarint(p, uint64(len(data)))
	return Section{ID: SectionData, Payload: append(p, data...)}
}

func cutShort(b []byte) []byte { return b[:len(b)-2] }

// tableWithoutModule is a function table of one function whose header adds
// up, with no module data pointing at it.
func tableWithoutModule() []byte {
	le := binary.LittleEndian
	h := append(slices.Clone(pcHeaderPrefix), make([]byte, headerSize-len(pcHeaderPrefix))...)
	le.PutUint64(h[headerNfunc:], 1)
	for _, field := range []int{headerFuncname, headerCutab, headerPctabOffset} {
		le.PutUint64(h[field:], headerSize)
	}
	le.PutUint64(h[headerPclnOffset:], headerSize+8)
	return append(h, make([]byte, 8+16+funcSize)...)
}

func TestSlimRefusesWhatItDoesNotKnow(t *testing.T) {
	header := append([]byte("rodata..."), pcHeaderPrefix...)
	bigHeader := append(append([]byte(nil), header...), make([]byte, headerSize)...)
	binary.LittleEndian.PutUint64(bigHeader[len(header)-8+headerNfunc:], 3)
	for name, c := range map[string]struct {
		wasm []byte
		want string
	}{
		"not wasm":          {[]byte("<html>"), "not a WebAssembly binary"},
		"version 2":         {[]byte("\x00asm\x02\x00\x00\x00"), "version 2"},
		"cut short":         {cutShort(module(dataSection([]byte("abc")))), "runs past the end"},
		"no data":           {module(Section{ID: 1, Payload: []byte{0}}), "no data section"},
		"data count":        {module(Section{ID: SectionDataCount, Payload: []byte{1}}, dataSection([]byte("x"))), "data count section"},
		"no function table": {module(dataSection([]byte("just some strings"))), "no Go function table"},
		"two tables":        {module(dataSection(append(append([]byte(nil), header...), header...))), "two candidate Go function tables"},
		"short header":      {module(dataSection(header)), "cut short"},
		"header of nothing": {module(dataSection(bigHeader)), "does not add up"},
		"no module data":    {module(dataSection(tableWithoutModule())), "no module data record"},
		"passive segment":   {module(Section{ID: SectionData, Payload: []byte{1, 1, 1, 'x'}}), "mode 1"},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := Slim(c.wasm)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Slim = %d bytes, %v; want an error saying %q", len(out), err, c.want)
			}
		})
	}
}

func TestEncodeSegmentsKeepsTheMemory(t *testing.T) {
	memory := make([]byte, 10000)
	copy(memory[3:], "head")
	copy(memory[100:], "near: fewer zeros than a gap")
	copy(memory[100+30+segmentGap:], "after a gap")
	memory[len(memory)-1] = 7
	payload, err := encodeSegments(0x1000, memory)
	if err != nil {
		t.Fatal(err)
	}
	segs, err := DataSegments(payload)
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 3 {
		t.Errorf("%d segments, want 3: one ends only at a run of %d zeros", len(segs), segmentGap)
	}
	base, got, err := memoryImage(segs)
	if err != nil {
		t.Fatal(err)
	}
	if base != 0x1003 || !bytes.Equal(got, memory[3:]) {
		t.Fatalf("the segments lay out %d bytes at %#x, want the memory's %d at 0x1003", len(got), base, len(memory)-3)
	}
}

// A wasm Slim does not know is served as built, with a warning saying why;
// a file that is no wasm is refused.
func TestSlimOrBuiltKeepsWhatSlimDoesNotKnow(t *testing.T) {
	unknown := module(dataSection([]byte("just some strings")))
	out, warning, err := SlimOrBuilt(unknown)
	if err != nil || !bytes.Equal(out, unknown) || warning == nil || !strings.Contains(warning.Error(), "no Go function table") {
		t.Errorf("SlimOrBuilt of a wasm Slim does not know = %d bytes, warning %v, error %v; want it as built, with the reason", len(out), warning, err)
	}
	if out, warning, err := SlimOrBuilt([]byte("<html>")); err == nil || out != nil || warning != nil {
		t.Errorf("SlimOrBuilt of no wasm = %d bytes, warning %v, error %v; want an error", len(out), warning, err)
	}
}
