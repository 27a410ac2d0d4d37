package gowasm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Slim returns the page's wasm smaller to download, running as before. It
// changes two things the Go linker (Go 1.26) writes, both in the data
// section:
//
//   - The runtime's tables from a program counter to its source file, its
//     line and the calls inlined there, with the inline trees, the file
//     names and each function's start line, are dropped (dropLineTables).
//     The runtime reads them only to print a traceback or to answer
//     runtime.Caller, runtime.Callers' frames and FuncForPC, which nothing
//     in the wasm asks; what it needs to run (the stack frame sizes, the
//     stack maps the garbage collector and stack growth read, the unsafe
//     points, the function names) is kept byte for byte. A panic in the page
//     still names its functions, with "?:0" for their file and line; plog
//     reports a bug with the link, which replays natively with full traces.
//   - The data segments are laid out again: the linker ends a segment at
//     every run of eight zero bytes, some 130,000 segments whose addresses
//     brotli cannot compress; a run of zeros costs brotli almost nothing,
//     so a segment here ends only at a run of segmentGap zeros.
//
// Measured on the page's wasm with brotli at level 11 (BENCHMARKS.md): 2.28
// MB as built, 1.85 MB slimmed. Slim checks what it reads against the layout
// it knows and refuses, saying what it found, a binary it does not
// recognise, rather than write a page that breaks; the site generator and
// slimexec then use the wasm as built, with a warning (SlimOrBuilt), so
// that a Go release that changes the layout costs a fifth more bytes until
// Slim learns it, not a build. The engine's tests run slimmed under Node
// (make test-wasm), and the browser tests on the slimmed site.
func Slim(wasm []byte) ([]byte, error) {
	return slim(wasm)
}

// SlimOrBuilt is Slim where Slim knows the binary, and the wasm as built
// where it does not (a Go release that changed the layout): the page then
// works, a fifth larger over the wire, and warning says why it was not
// slimmed, for the build to print. err is for a file that is no wasm at
// all, which no page can run.
func SlimOrBuilt(wasm []byte) (out []byte, warning, err error) {
	if _, err := Sections(wasm); err != nil {
		return nil, nil, err
	}
	slimmed, err := slim(wasm)
	if err != nil {
		return wasm, fmt.Errorf("the wasm is served as built, not slimmed (internal/gowasm does not know this Go's layout): %w", err), nil
	}
	return slimmed, nil, nil
}

func slim(wasm []byte) ([]byte, error) {
	sections, err := Sections(wasm)
	if err != nil {
		return nil, err
	}
	data := -1
	for i, s := range sections {
		switch s.ID {
		case SectionData:
			if data >= 0 {
				return nil, errors.New("the wasm has two data sections")
			}
			data = i
		case SectionDataCount:
			return nil, errors.New("the wasm has a data count section, which the Go linker does not write")
		}
	}
	if data < 0 {
		return nil, errors.New("the wasm has no data section")
	}
	segs, err := DataSegments(sections[data].Payload)
	if err != nil {
		return nil, err
	}
	base, memory, err := memoryImage(segs)
	if err != nil {
		return nil, err
	}
	if err := dropLineTables(memory, base); err != nil {
		return nil, err
	}
	out := append([]byte(nil), wasm[:8]...)
	for i, s := range sections {
		payload := s.Payload
		if i == data {
			if payload, err = encodeSegments(base, memory); err != nil {
				return nil, err
			}
		}
		out = AppendSection(out, s.ID, payload)
	}
	return out, nil
}

// segmentGap is the shortest run of zero bytes that ends a data segment.
// Measured on the page's wasm at brotli level 9: ending segments at runs of
// 8 zeros (as the linker does) 2.47 MB, at 64 zeros 2.20 MB, at 256 or more
// 2.20 MB within 1 KB; 16 makes more segments than a browser accepts.
const segmentGap = 1024

// maxSegments is the most data segments browsers accept (V8's limit, which
// the Go linker also keeps under).
const maxSegments = 100000

// memoryImage lays the segments out as the memory they initialise, from the
// lowest segment's address. The linker writes its sections' segments in its
// own order, not always the addresses'.
func memoryImage(segs []Segment) (base int, memory []byte, err error) {
	if len(segs) == 0 {
		return 0, nil, errors.New("the wasm's data section has no segments")
	}
	segs = slices.Clone(segs)
	slices.SortFunc(segs, func(a, b Segment) int { return a.Addr - b.Addr })
	base = segs[0].Addr
	end := base
	for _, s := range segs {
		if s.Addr < end {
			return 0, nil, fmt.Errorf("data segments overlap: the one at %#x begins before the one below it ends, at %#x", s.Addr, end)
		}
		end = s.Addr + len(s.Data)
	}
	if end-base > 1<<30 {
		return 0, nil, fmt.Errorf("the data segments span %d bytes, more than a page's wasm has", end-base)
	}
	memory = make([]byte, end-base)
	for _, s := range segs {
		copy(memory[s.Addr-base:], s.Data)
	}
	return base, memory, nil
}

// encodeSegments writes the data section's payload for memory at base,
// leaving out runs of at least segmentGap zero bytes.
func encodeSegments(base int, memory []byte) ([]byte, error) {
	type span struct{ start, end int }
	var spans []span
	for i := 0; i < len(memory); {
		for i < len(memory) && memory[i] == 0 {
			i++
		}
		if i == len(memory) {
			break
		}
		start, zeros := i, 0
		for ; i < len(memory) && zeros < segmentGap; i++ {
			if memory[i] == 0 {
				zeros++
			} else {
				zeros = 0
			}
		}
		spans = append(spans, span{start, i - zeros})
	}
	if len(spans) > maxSegments {
		return nil, fmt.Errorf("the data would take %d segments, more than the %d browsers accept", len(spans), maxSegments)
	}
	out := binary.AppendUvarint(nil, uint64(len(spans)))
	for _, s := range spans {
		out = append(out, 0, 0x41) // active in memory 0, at i32.const
		out = appendInt(out, int64(base+s.start))
		out = append(out, 0x0b) // end of the offset expression
		out = binary.AppendUvarint(out, uint64(s.end-s.start))
		out = append(out, memory[s.start:s.end]...)
	}
	return out, nil
}

// appendInt appends v as a signed LEB128 integer.
func appendInt(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// The runtime's function table (Go 1.26: runtime/symtab.go pcHeader and
// moduledata, runtime/runtime2.go _func, runtime/symtabinl.go inlinedCall;
// internal/abi/symtab.go names the pcdata and funcdata tables).
// pcHeaderPrefix is the header's first eight bytes on wasm: the magic
// abi.Go120PCLnTabMagic (0xfffffff1, little-endian), two zero pads, the
// instruction size quantum (1 on wasm) and the pointer size (8).
var pcHeaderPrefix = []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8}

const (
	// Offsets of pcHeader's 8-byte fields.
	headerNfunc       = 8
	headerFuncname    = 32
	headerCutab       = 40
	headerPctabOffset = 56
	headerPclnOffset  = 64
	headerSize        = 72

	// Offsets of moduledata's fields: its pcHeader pointer, the pointers of
	// its funcnametab and pctab slices, and gofunc, the address funcdata
	// offsets count from.
	moduleFuncname = 8
	modulePctab    = 80
	moduleGofunc   = 320

	// Offsets of _func's fields, and its size before the pcdata offsets.
	funcPcsp      = 16
	funcPcfile    = 20
	funcPcln      = 24
	funcNpcdata   = 28
	funcCuOffset  = 32
	funcStartLine = 36
	funcNfuncdata = 43
	funcSize      = 44

	// pcdataInlTreeIndex is abi.PCDATA_InlTreeIndex, the table from a
	// program counter to the inlined call it is in, an index into the
	// function's FUNCDATA_InlTree of inlinedCallSize-byte records; the
	// other pcdata tables (the unsafe points, the stack map indexes, the
	// argument liveness, the bounds-check panic details) are kept.
	pcdataInlTreeIndex = 2
	funcdataInlTree    = 3
	inlinedCallSize    = 16
	// noFuncdata is a funcdata offset that stands for none.
	noFuncdata = ^uint32(0)
	// maxPcdata bounds npcdata, to tell a layout Slim does not know (Go 1.26
	// has five pcdata tables).
	maxPcdata = 16
)

// dropLineTables finds the runtime's function table in memory (at base) and
// drops what only tracebacks read: every function's pcfile, pcln and
// inlining table offsets are zeroed (0 is the runtime's "no table": pcvalue
// returns -1, funcline1 "?", 0, and the inline unwinder sees no inlined
// call), with its compilation unit and start line; its inline tree is
// zeroed and its funcdata offset set to none; the file tables are zeroed;
// the pc tables still referenced move to the front of pctab and the rest of
// it is zeroed. Zeroed bytes cost brotli almost nothing.
func dropLineTables(memory []byte, base int) error {
	at := bytes.Index(memory, pcHeaderPrefix)
	if at < 0 {
		return errors.New("no Go function table (pcHeader, magic 0xfffffff1) in the data section: not a wasm from Go 1.20 or later, or one Slim does not know")
	}
	if again := bytes.Index(memory[at+1:], pcHeaderPrefix); again >= 0 {
		return fmt.Errorf("two candidate Go function tables in the data section, at %#x and %#x", at, at+1+again)
	}
	h := memory[at:]
	if len(h) < headerSize {
		return errors.New("the Go function table's header is cut short")
	}
	le := binary.LittleEndian
	word := func(b []byte, off int) int { return int(le.Uint64(b[off:])) }
	nfunc, cutab, pctab, pcln := word(h, headerNfunc), word(h, headerCutab), word(h, headerPctabOffset), word(h, headerPclnOffset)
	if nfunc <= 0 || cutab < headerSize || pctab < cutab || pcln <= pctab || pcln+8*(nfunc+1) > len(h) {
		return fmt.Errorf("the Go function table's header does not add up: %d functions, pctab at %d, the function table at %d, %d bytes in all", nfunc, pctab, pcln, len(h))
	}
	gofunc, err := findGofunc(memory, base, at)
	if err != nil {
		return err
	}
	tables, ftab := h[pctab:pcln], h[pcln:]
	kept := map[uint32][]int{} // a kept table's offset → where it is referenced from, in h
	entry := uint32(0)
	for i := range nfunc {
		entryOff, funcOff := le.Uint32(ftab[8*i:]), int(le.Uint32(ftab[8*i+4:]))
		if i > 0 && entryOff < entry {
			return fmt.Errorf("the Go function table is not sorted by program counter at function %d", i)
		}
		entry = entryOff
		f := pcln + funcOff
		if funcOff < 8*(nfunc+1) || f+funcSize > len(h) || le.Uint32(h[f:]) != entryOff {
			return fmt.Errorf("function %d's record at %d does not start with its entry %#x", i, funcOff, entryOff)
		}
		npcdata, nfuncdata := int(le.Uint32(h[f+funcNpcdata:])), int(h[f+funcNfuncdata])
		pcdata, funcdata := f+funcSize, f+funcSize+4*npcdata
		if npcdata > maxPcdata || funcdata+4*nfuncdata > len(h) {
			return fmt.Errorf("function %d's record, with %d pcdata and %d funcdata tables, is a layout Slim does not know", i, npcdata, nfuncdata)
		}
		refs := []int{f + funcPcsp}
		for p := range npcdata {
			if p != pcdataInlTreeIndex {
				refs = append(refs, pcdata+4*p)
			}
		}
		for _, ref := range refs {
			if off := le.Uint32(h[ref:]); off != 0 {
				kept[off] = append(kept[off], ref)
			}
		}
		if npcdata > pcdataInlTreeIndex && nfuncdata > funcdataInlTree {
			index, tree := pcdata+4*pcdataInlTreeIndex, funcdata+4*funcdataInlTree
			if err := dropInlineTree(memory, gofunc, tables, h[index:], h[tree:]); err != nil {
				return fmt.Errorf("function %d: %w", i, err)
			}
		}
		for _, field := range []int{funcPcfile, funcPcln, funcCuOffset, funcStartLine} {
			le.PutUint32(h[f+field:], 0)
		}
	}
	clear(h[cutab:pctab]) // the compilation units' file lists and the file names
	offsets := make([]uint32, 0, len(kept))
	for off := range kept {
		offsets = append(offsets, off)
	}
	slices.Sort(offsets)
	compact := append(make([]byte, 0, len(tables)), tables[0]) // offset 0 stays "no table"
	moved := make(map[uint32]uint32, len(offsets))
	for _, off := range offsets {
		n, _, err := readTable(tables, int(off))
		if err != nil {
			return err
		}
		moved[off] = uint32(len(compact))
		compact = append(compact, tables[off:int(off)+n]...)
	}
	clear(tables[copy(tables, compact):])
	for off, refs := range kept {
		for _, ref := range refs {
			le.PutUint32(h[ref:], moved[off])
		}
	}
	return nil
}

// findGofunc finds the runtime's moduledata, the one word in memory that
// holds the pcHeader's address and is followed by the addresses of its
// function names and pc tables, and returns where its gofunc points, as an
// index into memory.
func findGofunc(memory []byte, base, at int) (int, error) {
	le := binary.LittleEndian
	h := memory[at:]
	address := func(i int) uint64 { return uint64(base + i) }
	pointer := le.AppendUint64(nil, address(at))
	found := -1
	for from := 0; ; {
		n := bytes.Index(memory[from:], pointer)
		if n < 0 {
			break
		}
		i := from + n
		from = i + 1
		if address(i)%8 != 0 || i+moduleGofunc+8 > len(memory) {
			continue
		}
		md := memory[i:]
		if le.Uint64(md[moduleFuncname:]) != address(at+int(le.Uint64(h[headerFuncname:]))) ||
			le.Uint64(md[modulePctab:]) != address(at+int(le.Uint64(h[headerPctabOffset:]))) {
			continue
		}
		if found >= 0 {
			return 0, fmt.Errorf("two candidate module data records, at %#x and %#x", found, i)
		}
		found = i
	}
	if found < 0 {
		return 0, errors.New("no module data record points at the Go function table")
	}
	gofunc := int(le.Uint64(memory[found+moduleGofunc:])) - base
	if gofunc < 0 || gofunc >= len(memory) {
		return 0, fmt.Errorf("the module data's gofunc, %#x, is outside the data section", gofunc+base)
	}
	return gofunc, nil
}

// dropInlineTree zeroes a function's inline tree and its offset, and its
// inlining pc table's offset. The tree's length is one record past the
// largest index its pc table gives; a record no program counter names stays,
// unread.
func dropInlineTree(memory []byte, gofunc int, tables, index, tree []byte) error {
	le := binary.LittleEndian
	off := le.Uint32(index)
	le.PutUint32(index, 0)
	treeOff := le.Uint32(tree)
	if off == 0 || treeOff == noFuncdata {
		return nil
	}
	_, largest, err := readTable(tables, int(off))
	if err != nil {
		return err
	}
	start, end := gofunc+int(treeOff), gofunc+int(treeOff)+inlinedCallSize*int(largest+1)
	if largest < 0 || end > len(memory) {
		return fmt.Errorf("its inline tree at gofunc%+d, of %d records, runs outside the data section", treeOff, largest+1)
	}
	clear(memory[start:end])
	le.PutUint32(tree, noFuncdata)
	return nil
}

// readTable reads the pc-value table at off: pairs of a zigzag value delta
// and a pc delta, both unsigned varints, from the value -1, ended by a value
// delta of 0 once the pc has moved past the function's entry
// (runtime/symtab.go step). It returns the table's length and the largest
// value it gives.
func readTable(tables []byte, off int) (n int, largest int64, err error) {
	if off <= 0 || off >= len(tables) {
		return 0, 0, fmt.Errorf("a pc-value table at %d, outside pctab's %d bytes", off, len(tables))
	}
	i, pc, value := off, uint64(0), int64(-1)
	largest = -1
	for {
		delta, n := binary.Uvarint(tables[i:])
		if n <= 0 {
			return 0, 0, fmt.Errorf("the pc-value table at %d runs past pctab's end", off)
		}
		i += n
		if delta == 0 && pc != 0 {
			return i - off, largest, nil
		}
		value += int64(delta>>1) ^ -int64(delta&1)
		largest = max(largest, value)
		pcDelta, n := binary.Uvarint(tables[i:])
		if n <= 0 {
			return 0, 0, fmt.Errorf("the pc-value table at %d runs past pctab's end", off)
		}
		i += n
		pc += pcDelta
	}
}
