// Package fbkit holds what the compiled forms of the data contracts
// (kgimg/profilefb, kgimg/manifestfb) share: writing Go values into
// FlatBuffers tables so that absent and empty stay distinct, and copying
// them back out.
package fbkit

import (
	"unsafe"

	flatbuffers "github.com/google/flatbuffers/go"
)

// Builder writes values; a zero offset leaves a field absent (the generated
// Add functions of an offset field skip 0).
type Builder struct{ B *flatbuffers.Builder }

// Str writes a string; the empty string is left absent (it reads back as "").
func (w Builder) Str(s string) flatbuffers.UOffsetT {
	if s == "" {
		return 0
	}
	return w.B.CreateString(s)
}

// OptStr writes an optional string, present (even empty) exactly when s is not nil.
func (w Builder) OptStr(s *string) flatbuffers.UOffsetT {
	if s == nil {
		return 0
	}
	return w.B.CreateString(*s)
}

// Strs writes a string vector, present (even empty) exactly when list is not nil.
func (w Builder) Strs(list []string) flatbuffers.UOffsetT {
	if list == nil {
		return 0
	}
	offs := make([]flatbuffers.UOffsetT, len(list))
	for i, s := range list {
		offs[i] = w.B.CreateString(s)
	}
	return w.Offsets(offs, true)
}

// Offsets writes a vector of offsets (tables or strings); present exactly
// when present is true.
func (w Builder) Offsets(offs []flatbuffers.UOffsetT, present bool) flatbuffers.UOffsetT {
	if !present {
		return 0
	}
	w.B.StartVector(4, len(offs), 4)
	for i := len(offs) - 1; i >= 0; i-- {
		w.B.PrependUOffsetT(offs[i])
	}
	return w.B.EndVector(len(offs))
}

// vtable returns the vtable offset of field number n (schema order from 0).
func vtable(n int) flatbuffers.VOffsetT { return flatbuffers.VOffsetT(4 + 2*n) }

// StrsAt copies the string vector in field number n of t: nil when absent.
func StrsAt(t flatbuffers.Table, n int) []string {
	o := flatbuffers.UOffsetT(t.Offset(vtable(n)))
	if o == 0 {
		return nil
	}
	start, l := t.Vector(o), t.VectorLen(o)
	out := make([]string, l)
	for i := range out {
		out[i] = string(t.ByteVector(start + flatbuffers.UOffsetT(i*4)))
	}
	return out
}

// Slice returns a slice with one element per entry of the vector in field
// number n of t: nil when the vector is absent, non-nil (even empty) when present.
func Slice[T any](t flatbuffers.Table, n int) []T {
	o := flatbuffers.UOffsetT(t.Offset(vtable(n)))
	if o == 0 {
		return nil
	}
	return make([]T, t.VectorLen(o))
}

// OptStr copies an optional string: nil when absent.
func OptStr(b []byte) *string {
	if b == nil {
		return nil
	}
	s := string(b)
	return &s
}

// Arena copies the strings a decoder reads out of a buffer into a few
// shared allocations instead of one each: a decoded manifest holds dozens
// of short strings, and a catalog of 10,000 images decodes one each at
// start. The strings stay valid as long as any of them is referenced.
type Arena struct{ buf []byte }

// arenaChunk is the least an arena allocates at once.
const arenaChunk = 1 << 10

// Str copies b into the arena and returns it as a string.
func (a *Arena) Str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(a.buf)-len(a.buf) < len(b) {
		a.buf = make([]byte, 0, max(len(b), arenaChunk))
	}
	start := len(a.buf)
	a.buf = append(a.buf, b...)
	return unsafe.String(&a.buf[start], len(b))
}

// OptStr is OptStr, copying into the arena.
func (a *Arena) OptStr(b []byte) *string {
	if b == nil {
		return nil
	}
	s := a.Str(b)
	return &s
}

// StrsAt is StrsAt, copying into the arena.
func (a *Arena) StrsAt(t flatbuffers.Table, n int) []string {
	o := flatbuffers.UOffsetT(t.Offset(vtable(n)))
	if o == 0 {
		return nil
	}
	start, l := t.Vector(o), t.VectorLen(o)
	out := make([]string, l)
	for i := range out {
		out[i] = a.Str(t.ByteVector(start + flatbuffers.UOffsetT(i*4)))
	}
	return out
}
