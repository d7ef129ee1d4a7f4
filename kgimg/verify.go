package kgimg

import (
	"encoding/binary"
	"unicode/utf8"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/kgimg/format"
)

// The Go FlatBuffers runtime has no verifier and panics (or reads garbage) on
// malformed offsets. walker checks, before any accessor runs, that every table,
// vtable, field, vector and string the schema can reach lies inside the buffer:
// all arithmetic is done in uint64 against the buffer length, so a crafted
// offset can neither wrap nor point outside. It also bounds the work (nesting
// depth and the number of tables and vector elements visited) so a crafted image
// cannot make verification itself a denial of service.
type walker struct {
	buf    []byte
	base   int64 // file offset of buf[0], for error offsets
	budget int64 // remaining table/element visits
	err    error
	bytes  int64 // bytes accounted (for Sections)
}

const maxDepth = 16

func (w *walker) fail(section string, off uint64, format string, args ...any) {
	if w.err == nil {
		w.err = corrupt(section, w.base+int64(off), format, args...)
	}
}

func (w *walker) u32(off uint64) (uint64, bool) {
	if off+4 > uint64(len(w.buf)) {
		return 0, false
	}
	return uint64(binary.LittleEndian.Uint32(w.buf[off:])), true
}

func (w *walker) u16(off uint64) (uint64, bool) {
	if off+2 > uint64(len(w.buf)) {
		return 0, false
	}
	return uint64(binary.LittleEndian.Uint16(w.buf[off:])), true
}

// indirect follows the uoffset stored at off.
func (w *walker) indirect(section string, off uint64) (uint64, bool) {
	rel, ok := w.u32(off)
	if !ok {
		w.fail(section, off, "offset out of range")
		return 0, false
	}
	target := off + rel
	if rel == 0 || target >= uint64(len(w.buf)) {
		w.fail(section, off, "offset %d points outside the buffer", rel)
		return 0, false
	}
	return target, true
}

// table verifies the table at pos and everything it references.
func (w *walker) table(pos uint64, d *tableDesc, depth int) {
	if w.err != nil {
		return
	}
	if depth > maxDepth {
		w.fail(d.name, pos, "nesting deeper than %d", maxDepth)
		return
	}
	if w.budget--; w.budget < 0 {
		w.fail(d.name, pos, "more tables and elements than the image could hold")
		return
	}
	soff, ok := w.u32(pos)
	if !ok {
		w.fail(d.name, pos, "table out of range")
		return
	}
	vt := int64(pos) - int64(int32(uint32(soff)))
	if vt < 0 || uint64(vt)+4 > uint64(len(w.buf)) {
		w.fail(d.name, pos, "vtable out of range")
		return
	}
	vtSize, _ := w.u16(uint64(vt))
	objSize, _ := w.u16(uint64(vt) + 2)
	if vtSize < 4 || vtSize%2 != 0 || uint64(vt)+vtSize > uint64(len(w.buf)) {
		w.fail(d.name, uint64(vt), "vtable size %d is invalid", vtSize)
		return
	}
	if objSize < 4 || pos+objSize > uint64(len(w.buf)) {
		w.fail(d.name, pos, "object size %d is invalid", objSize)
		return
	}
	w.bytes += int64(objSize)
	for slot, f := range d.fields {
		entry := uint64(4 + 2*slot)
		var fo uint64
		if entry < vtSize {
			fo, _ = w.u16(uint64(vt) + entry)
		}
		if fo == 0 || f.kind == kDeprecated {
			if fo == 0 && f.required {
				w.fail(d.name, pos, "required field %s is missing", f.name)
				return
			}
			continue
		}
		width := uint64(4)
		if f.kind == kScalar || f.kind == kEnum {
			width = uint64(f.size)
		}
		if fo < 4 || fo+width > objSize {
			w.fail(d.name, pos, "field %s lies outside its table", f.name)
			return
		}
		w.field(pos+fo, d.name, f, depth)
		if w.err != nil {
			return
		}
	}
}

func (w *walker) field(at uint64, section string, f fieldDesc, depth int) {
	switch f.kind {
	case kScalar:
	case kEnum:
		if int(w.buf[at]) > f.max {
			w.fail(section, at, "enum value %d is out of range", w.buf[at])
		}
	case kString:
		if t, ok := w.indirect(section, at); ok {
			w.str(section, t)
		}
	case kBytes:
		if t, ok := w.indirect(section, at); ok {
			w.vector(section, t, uint64(f.size))
		}
	case kStrings:
		t, ok := w.indirect(section, at)
		if !ok {
			return
		}
		n := w.vector(section, t, 4)
		for i := uint64(0); i < n && w.err == nil; i++ {
			if w.budget--; w.budget < 0 {
				w.fail(section, t, "too many elements")
				return
			}
			if s, ok := w.indirect(section, t+4+4*i); ok {
				w.str(section, s)
			}
		}
	case kTables:
		t, ok := w.indirect(section, at)
		if !ok {
			return
		}
		n := w.vector(section, t, 4)
		for i := uint64(0); i < n && w.err == nil; i++ {
			if s, ok := w.indirect(section, t+4+4*i); ok {
				w.table(s, f.table, depth+1)
			}
		}
	case kTable:
		if t, ok := w.indirect(section, at); ok {
			w.table(t, f.table, depth+1)
		}
	}
}

// vector checks a vector header and extent and returns its length.
func (w *walker) vector(section string, at, elem uint64) uint64 {
	n, ok := w.u32(at)
	if !ok || at+4+n*elem > uint64(len(w.buf)) {
		w.fail(section, at, "vector of %d elements runs past the buffer", n)
		return 0
	}
	w.bytes += int64(4 + n*elem)
	return n
}

// str checks a string: length, terminator, UTF-8.
func (w *walker) str(section string, at uint64) {
	n, ok := w.u32(at)
	if !ok || at+4+n+1 > uint64(len(w.buf)) {
		w.fail(section, at, "string runs past the buffer")
		return
	}
	w.bytes += int64(5 + n)
	if w.buf[at+4+n] != 0 {
		w.fail(section, at, "string is not NUL-terminated")
		return
	}
	if !utf8.Valid(w.buf[at+4 : at+4+n]) {
		w.fail(section, at, "string is not valid UTF-8")
	}
}

// verifyStructure checks the FlatBuffers payload against the schema.
func verifyStructure(payload []byte) error {
	if len(payload) < 8 {
		return corrupt("payload", headerSize, "payload shorter than a FlatBuffers root")
	}
	if string(payload[4:8]) != format.FileIdentifier {
		return ErrNotImage
	}
	w := &walker{buf: payload, base: headerSize, budget: int64(len(payload))/4 + 16}
	root, ok := w.indirect("root", 0)
	if !ok {
		return w.err
	}
	w.table(root, imageDesc, 0)
	return w.err
}

// Section is one top-level part of an image and the bytes it occupies.
type Section struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
}

// Sections returns the image's top-level fields with their sizes (tables,
// vectors and strings reached from each; padding not counted).
func (img *Image) Sections() []Section {
	out := []Section{{Name: "header", Bytes: headerSize}}
	if img.Ready() != nil {
		return out
	}
	payload := img.file[headerSize:]
	root := uint64(img.root.Table().Pos)
	t := img.root.Table()
	for s, f := range imageDesc.fields {
		o := uint64(t.Offset(flatbuffers.VOffsetT(4 + 2*s)))
		if o == 0 || f.kind == kScalar || f.kind == kEnum {
			continue
		}
		w := &walker{buf: payload, budget: int64(len(payload))}
		w.field(root+o, f.name, f, 0)
		out = append(out, Section{Name: f.name, Bytes: w.bytes})
	}
	return out
}
