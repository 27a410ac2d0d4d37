package main

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func TestPackageNamesUndoTheLinkersSpelling(t *testing.T) {
	names := newPackageNames([]string{"plog/core", "plog/core/scenario", "github.com/maxence-charriere/go-app/v9/pkg/app", "slices", "runtime"})
	for function, want := range map[string]string{
		"plog_core.__Log_.Append":                                      "plog/core",
		"plog_core_scenario.Complete":                                  "plog/core/scenario",
		"github.com_maxence_charriere_go_app_v9_pkg_app.__htmlNav_.ID": "github.com/maxence-charriere/go-app/v9/pkg/app",
		"slices.Sort___plog_core.Record_":                              "slices",
		"runtime.main":                                                 "runtime",
		"main.main":                                                    "main",
		"go_buildid":                                                   "<linker>",
		"type_.eq.plog_core.Record":                                    "<linker>",
	} {
		if got := names.of(function); got != want {
			t.Errorf("of(%q) = %q, want %q", function, got, want)
		}
	}
}

// wasmModule writes a module of one imported function, two defined ones
// named in a name section, and a data segment.
func wasmModule() []byte {
	var b bytes.Buffer
	b.Write([]byte("\x00asm\x01\x00\x00\x00"))
	section := func(id byte, payload []byte) {
		b.WriteByte(id)
		b.Write(binary.AppendUvarint(nil, uint64(len(payload))))
		b.Write(payload)
	}
	vec := func(items ...[]byte) []byte {
		out := binary.AppendUvarint(nil, uint64(len(items)))
		for _, it := range items {
			out = append(out, it...)
		}
		return out
	}
	name := func(s string) []byte { return append(binary.AppendUvarint(nil, uint64(len(s))), s...) }
	sized := func(p []byte) []byte { return append(binary.AppendUvarint(nil, uint64(len(p))), p...) }
	section(1, vec([]byte{0x60, 0, 0}))                                              // type: () -> ()
	section(2, vec(append(append(name("go"), name("debug")...), 0, 0)))              // import a function
	section(3, vec([]byte{0}, []byte{0}))                                            // two functions
	section(10, vec(sized([]byte{0, 0x0b}), sized([]byte{0, 0x01, 0x01, 0x0b})))     // their bodies
	section(11, vec(append([]byte{0, 0x41, 0x08, 0x0b}, sized([]byte("hello"))...))) // data at 8
	names := vec(append([]byte{1}, name("plog_core.Produce")...), append([]byte{2}, name("runtime.main")...))
	section(0, append(name("name"), append([]byte{1}, sized(names)...)...))
	return b.Bytes()
}

func TestParseModuleNamesEachFunctionsBody(t *testing.T) {
	m, err := parseModule(wasmModule())
	if err != nil {
		t.Fatal(err)
	}
	if m.imports != 1 || len(m.functions) != 2 {
		t.Fatalf("imports %d, functions %d; want 1 and 2", m.imports, len(m.functions))
	}
	if f := m.functions[0]; f.name != "plog_core.Produce" || len(f.body) != 2 {
		t.Errorf("first function %q of %d bytes, want plog_core.Produce of 2", f.name, len(f.body))
	}
	if f := m.functions[1]; f.name != "runtime.main" || len(f.body) != 4 {
		t.Errorf("second function %q of %d bytes, want runtime.main of 4", f.name, len(f.body))
	}
	if string(m.data) != "hello" {
		t.Errorf("data %q, want hello", m.data)
	}
}

func TestParseModuleRefusesWhatIsNoModule(t *testing.T) {
	good := wasmModule()
	for name, b := range map[string][]byte{
		"empty":     nil,
		"not wasm":  []byte("\x7fELF\x02\x01\x01\x00"),
		"truncated": good[:len(good)-3],
	} {
		if _, err := parseModule(b); err == nil {
			t.Errorf("%s: parsed without an error", name)
		}
	}
}
