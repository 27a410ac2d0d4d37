package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// module is what the size report needs of a WebAssembly binary: the size of
// each section, and of each function's body with its name (from the "name"
// custom section, which the Go linker writes unless -s drops it).
type module struct {
	sections  []section
	functions []function // defined functions, in the code section's order
	data      []byte     // the data section's segments, concatenated
	imports   int        // imported functions, which come first in the index space
}

type section struct {
	id   byte
	name string // a custom section's name; the standard name otherwise
	size int    // its payload's size in bytes
}

type function struct {
	name string
	body []byte
}

// sectionNames are the standard sections' names (WebAssembly core
// specification 2.0, section 5.5.2).
var sectionNames = map[byte]string{
	1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global",
	7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "datacount",
}

// reader reads the binary format's LEB128 integers and byte vectors,
// remembering the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errors.New("truncated or overlong integer")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = fmt.Errorf("a field of %d bytes runs past the end (%d left)", n, len(r.b))
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

func (r *reader) byte() byte {
	if b := r.bytes(1); len(b) == 1 {
		return b[0]
	}
	return 0
}

func (r *reader) name() string { return string(r.bytes(r.uint())) }

// parseModule reads the sections of a wasm binary, the bodies of its
// functions and their names.
func parseModule(b []byte) (*module, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly binary (no \\0asm magic)")
	}
	r := &reader{b: b[8:]}
	m := &module{}
	var names map[uint64]string
	var bodies [][]byte
	for len(r.b) > 0 && r.err == nil {
		id := r.byte()
		payload := r.bytes(r.uint())
		if r.err != nil {
			break
		}
		s := section{id: id, name: sectionNames[id], size: len(payload)}
		p := &reader{b: payload}
		switch id {
		case 0:
			s.name = p.name()
			if s.name == "name" {
				names = parseNames(p)
			}
		case 2:
			m.imports = countFunctionImports(p)
		case 10:
			for n := p.uint(); n > 0 && p.err == nil; n-- {
				bodies = append(bodies, p.bytes(p.uint()))
			}
		case 11:
			for n := p.uint(); n > 0 && p.err == nil; n-- {
				switch p.uint() { // the segment's mode
				case 0: // active, memory 0, an offset expression
					skipConstExpr(p)
				case 1: // passive
				case 2: // active, a memory index, an offset expression
					p.uint()
					skipConstExpr(p)
				default:
					p.err = errors.New("unknown data segment mode")
				}
				m.data = append(m.data, p.bytes(p.uint())...)
			}
		}
		if p.err != nil {
			return nil, fmt.Errorf("section %s: %w", s.name, p.err)
		}
		m.sections = append(m.sections, s)
	}
	if r.err != nil {
		return nil, r.err
	}
	for i, body := range bodies {
		name, ok := names[uint64(m.imports+i)]
		if !ok {
			name = fmt.Sprintf("<function %d>", m.imports+i)
		}
		m.functions = append(m.functions, function{name: name, body: body})
	}
	return m, nil
}

// countFunctionImports counts the import section's functions.
func countFunctionImports(p *reader) int {
	functions := 0
	for n := p.uint(); n > 0 && p.err == nil; n-- {
		p.name() // module
		p.name() // field
		switch p.byte() {
		case 0: // function: its type index
			p.uint()
			functions++
		case 1: // table: element type, limits
			p.byte()
			skipLimits(p)
		case 2: // memory: limits
			skipLimits(p)
		case 3: // global: value type, mutability
			p.byte()
			p.byte()
		}
	}
	return functions
}

func skipLimits(p *reader) {
	if p.byte() == 1 {
		p.uint()
	}
	p.uint()
}

// skipConstExpr skips an offset expression: i32.const N end, as the Go
// linker writes them.
func skipConstExpr(p *reader) {
	if op := p.byte(); op != 0x41 {
		p.err = fmt.Errorf("offset expression starts with opcode %#x, want i32.const", op)
		return
	}
	p.uint()
	if p.byte() != 0x0b {
		p.err = errors.New("offset expression does not end after its constant")
	}
}

// parseNames reads the function names subsection of the "name" section.
func parseNames(p *reader) map[uint64]string {
	names := map[uint64]string{}
	for len(p.b) > 0 && p.err == nil {
		kind := p.byte()
		sub := &reader{b: p.bytes(p.uint())}
		if kind != 1 {
			continue
		}
		for n := sub.uint(); n > 0 && sub.err == nil; n-- {
			i := sub.uint()
			names[i] = sub.name()
		}
		if sub.err != nil {
			p.err = sub.err
		}
	}
	return names
}
