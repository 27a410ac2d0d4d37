package main

import (
	"fmt"

	"plog/internal/gowasm"
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

// parseModule reads the sections of a wasm binary, the bodies of its
// functions and their names.
func parseModule(b []byte) (*module, error) {
	sections, err := gowasm.Sections(b)
	if err != nil {
		return nil, err
	}
	m := &module{}
	var names map[uint64]string
	var bodies [][]byte
	for _, sec := range sections {
		s := section{id: sec.ID, name: gowasm.SectionNames[sec.ID], size: len(sec.Payload)}
		p := &gowasm.Reader{B: sec.Payload}
		switch sec.ID {
		case gowasm.SectionCustom:
			s.name = p.Name()
			if s.name == "name" {
				names = parseNames(p)
			}
		case gowasm.SectionImport:
			m.imports = countFunctionImports(p)
		case gowasm.SectionCode:
			for n := p.Uint(); n > 0 && p.Err == nil; n-- {
				bodies = append(bodies, p.Bytes(p.Uint()))
			}
		case gowasm.SectionData:
			segs, err := gowasm.DataSegments(sec.Payload)
			if err != nil {
				return nil, err
			}
			for _, seg := range segs {
				m.data = append(m.data, seg.Data...)
			}
		}
		if p.Err != nil {
			return nil, fmt.Errorf("section %s: %w", s.name, p.Err)
		}
		m.sections = append(m.sections, s)
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
func countFunctionImports(p *gowasm.Reader) int {
	functions := 0
	for n := p.Uint(); n > 0 && p.Err == nil; n-- {
		p.Name() // module
		p.Name() // field
		switch p.Byte() {
		case 0: // function: its type index
			p.Uint()
			functions++
		case 1: // table: element type, limits
			p.Byte()
			skipLimits(p)
		case 2: // memory: limits
			skipLimits(p)
		case 3: // global: value type, mutability
			p.Byte()
			p.Byte()
		}
	}
	return functions
}

func skipLimits(p *gowasm.Reader) {
	if p.Byte() == 1 {
		p.Uint()
	}
	p.Uint()
}

// parseNames reads the function names subsection of the "name" section.
func parseNames(p *gowasm.Reader) map[uint64]string {
	names := map[uint64]string{}
	for len(p.B) > 0 && p.Err == nil {
		kind := p.Byte()
		sub := &gowasm.Reader{B: p.Bytes(p.Uint())}
		if kind != 1 {
			continue
		}
		for n := sub.Uint(); n > 0 && sub.Err == nil; n-- {
			i := sub.Uint()
			names[i] = sub.Name()
		}
		if sub.Err != nil {
			p.Err = sub.Err
		}
	}
	return names
}
