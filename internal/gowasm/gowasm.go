// Package gowasm reads the WebAssembly binaries the Go toolchain writes for
// GOOS=js GOARCH=wasm, and slims the page's wasm before the site serves it
// (Slim, slim.go).
package gowasm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Section ids of the WebAssembly core specification 2.0, section 5.5.2.
const (
	SectionCustom = 0
	SectionImport = 2
	SectionCode   = 10
	SectionData   = 11
	// SectionDataCount declares how many data segments there are; the Go
	// linker writes none, and Slim, which changes the count, refuses a
	// binary that has one.
	SectionDataCount = 12
)

// SectionNames are the standard sections' names.
var SectionNames = map[byte]string{
	1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global",
	7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "datacount",
}

// Section is one section of a binary: its id and its payload, a slice of the
// binary read.
type Section struct {
	ID      byte
	Payload []byte
}

// Sections splits a WebAssembly binary into its sections.
func Sections(b []byte) ([]Section, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly binary (no \\0asm magic)")
	}
	if v := binary.LittleEndian.Uint32(b[4:8]); v != 1 {
		return nil, fmt.Errorf("WebAssembly binary format version %d, want 1", v)
	}
	r := &Reader{B: b[8:]}
	var sections []Section
	for len(r.B) > 0 && r.Err == nil {
		id := r.Byte()
		payload := r.Bytes(r.Uint())
		if r.Err == nil {
			sections = append(sections, Section{ID: id, Payload: payload})
		}
	}
	if r.Err != nil {
		return nil, fmt.Errorf("section %d: %w", len(sections), r.Err)
	}
	return sections, nil
}

// Reader reads the binary format's LEB128 integers and byte vectors,
// remembering the first error.
type Reader struct {
	B   []byte
	Err error
}

// Uint reads an unsigned LEB128 integer. The Go linker writes some sizes
// padded to five bytes; Uvarint reads those too.
func (r *Reader) Uint() uint64 {
	if r.Err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.B)
	if n <= 0 {
		r.Err = errors.New("truncated or overlong integer")
		return 0
	}
	r.B = r.B[n:]
	return v
}

// Int reads a signed LEB128 integer (an i32.const's operand).
func (r *Reader) Int() int64 {
	var v int64
	var shift uint
	for {
		c := r.Byte()
		if r.Err != nil {
			return 0
		}
		if shift >= 63 {
			r.Err = errors.New("overlong signed integer")
			return 0
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
}

// Bytes reads n bytes.
func (r *Reader) Bytes(n uint64) []byte {
	if r.Err != nil {
		return nil
	}
	if n > uint64(len(r.B)) {
		r.Err = fmt.Errorf("a field of %d bytes runs past the end (%d left)", n, len(r.B))
		return nil
	}
	b := r.B[:n]
	r.B = r.B[n:]
	return b
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if b := r.Bytes(1); len(b) == 1 {
		return b[0]
	}
	return 0
}

// Name reads a length-prefixed string.
func (r *Reader) Name() string { return string(r.Bytes(r.Uint())) }

// Segment is an active data segment of memory 0: its bytes go to Addr.
type Segment struct {
	Addr int
	Data []byte
}

// DataSegments reads the data section's segments, as the Go linker writes
// them: each active in memory 0 at an i32.const address.
func DataSegments(payload []byte) ([]Segment, error) {
	r := &Reader{B: payload}
	var segs []Segment
	for n := r.Uint(); n > 0 && r.Err == nil; n-- {
		if mode := r.Uint(); mode != 0 {
			return nil, fmt.Errorf("data segment %d has mode %d, want 0 (active, memory 0) as the Go linker writes", len(segs), mode)
		}
		if op := r.Byte(); op != 0x41 {
			return nil, fmt.Errorf("data segment %d's offset starts with opcode %#x, want i32.const", len(segs), op)
		}
		addr := r.Int()
		if end := r.Byte(); r.Err == nil && end != 0x0b {
			return nil, fmt.Errorf("data segment %d's offset does not end after its constant", len(segs))
		}
		data := r.Bytes(r.Uint())
		if r.Err == nil && (addr < 0 || addr > 1<<32) {
			return nil, fmt.Errorf("data segment %d at address %d, outside a 32-bit memory", len(segs), addr)
		}
		segs = append(segs, Segment{Addr: int(addr), Data: data})
	}
	if r.Err != nil {
		return nil, fmt.Errorf("data segment %d: %w", len(segs), r.Err)
	}
	return segs, nil
}
