package kgimg

import (
	"fmt"
	"reflect"
	"unsafe"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/kgc-project/kgc/kgimg/format"
	"github.com/kgc-project/kgc/kgimg/kgfb"
)

// Test hooks (compiled only into this package's tests).

// Reseal recomputes the checksums after a deliberate mutation.
func Reseal(b []byte) []byte {
	format.Reseal(b)
	return b
}

func offsetIn(file, part []byte) int {
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(part))) - uintptr(unsafe.Pointer(unsafe.SliceData(file))))
}

// Places returns the file offsets of structures the crafted-image tests mutate.
func (img *Image) Places() map[string]int {
	child := img.Adjacency(HasChild, Out)
	var facet kgfb.Facet
	img.root.Facets(&facet, 0)
	bm := facet.BitmapBytes()
	p := map[string]int{
		"csr.neighbors":   offsetIn(img.file, child.neighbors.b),
		"csr.offsets":     offsetIn(img.file, child.offsets.b),
		"node.id.spans":   offsetIn(img.file, img.v.n.str[NodeID].spans.b),
		"node.desc.data":  offsetIn(img.file, img.v.n.str[NodeDescription].bytes(1)),
		"node_id_order":   offsetIn(img.file, img.v.nodeIDOrder.b),
		"facet0.bitmap":   offsetIn(img.file, bm),
		"facet0.lastword": offsetIn(img.file, bm) + len(bm) - 2,
		"rel.label":       offsetIn(img.file, img.v.r.label),
		"rel.confidence":  offsetIn(img.file, img.v.r.confidence),
		"node.is_current": offsetIn(img.file, img.v.n.isCurrent),
		"node.cur_pos":    offsetIn(img.file, img.v.n.curPos.b),
		"payload":         headerSize,
	}
	if cp := img.compiledProfile(); cp != nil {
		var k kgfb.ProfileKey
		cp.Keys(&k, 0)
		p["compiled.local_subject"] = offsetIn(img.file, cp.LocalSubject())
		p["compiled.key0"] = offsetIn(img.file, k.Key())
	}
	if cm := img.compiledManifest(); cm != nil {
		p["compiled.framework_name"] = offsetIn(img.file, cm.Framework(nil).Name())
	}
	if pub := &img.v.pub; pub.count > 0 {
		p["pub.origin0"] = offsetIn(img.file, pub.end[0].b)
		p["pub.kind0"] = offsetIn(img.file, pub.kind)
		p["pub.byuri0"] = offsetIn(img.file, pub.byURI.b)
		p["pub.outrows0"] = offsetIn(img.file, pub.outRows.b)
		for i := 0; i < pub.count && p["pub.title"] == 0; i++ {
			for _, c := range pub.title {
				if b := c.bytes(i); len(b) > 0 {
					p["pub.title"] = offsetIn(img.file, b)
					break
				}
			}
		}
	}
	if img.v.prov.records.len() > 0 {
		p["prov.record0"] = offsetIn(img.file, img.v.prov.records.bytes(0))
	}
	for i := 0; i < img.v.n.count; i++ {
		if b := img.v.n.str[NodeProvenanceJSON].bytes(i); len(b) > 0 {
			p["node.provenance"] = offsetIn(img.file, b)
			break
		}
	}
	for i := 0; i < img.v.prov.relRecord.Len(); i++ {
		if img.v.prov.relRecord.At(i) != noRecord {
			p["prov.relRecord"] = offsetIn(img.file, img.v.prov.relRecord.b) + 4*i
			break
		}
	}
	return p
}

// NoRecord and NumFields expose constants to the external tests.
const NoRecord = noRecord

var NumNodeFields, NumRelFields = numNodeFields, numRelFields

// SetBeforeOpen makes Open call f between its checks of a path and its
// opening; the returned func restores the default.
func SetBeforeOpen(f func(string)) (restore func()) {
	beforeOpen = f
	return func() { beforeOpen = func(string) {} }
}

// SetReadVerifyLimit sets the largest image Open verifies on a copy read
// through the descriptor (negative: none) and returns a func restoring it.
func SetReadVerifyLimit(n int64) (restore func()) {
	old := readVerifyLimit
	readVerifyLimit = n
	return func() { readVerifyLimit = old }
}

// ScrubsCopies reports whether this build wipes the verified copy once
// OpenWith's read returns.
const ScrubsCopies = scrubCopies

// ViewSpans describes every view an accessor reads: each slice and string
// as its offset in the image's bytes and its length, each number as its
// value, one line each, named by its path in the views. A view whose bytes
// lie outside the image's is an error.
func (img *Image) ViewSpans() ([]string, error) {
	var out []string
	base := uintptr(unsafe.Pointer(unsafe.SliceData(img.file)))
	var walk func(path string, v reflect.Value) error
	span := func(path string, p uintptr, n int) error {
		if n == 0 {
			out = append(out, path+" empty")
			return nil
		}
		if p < base || p+uintptr(n) > base+uintptr(len(img.file)) {
			return fmt.Errorf("%s: %d bytes at %#x lie outside the image's bytes", path, n, p)
		}
		out = append(out, fmt.Sprintf("%s @%d+%d", path, p-base, n))
		return nil
	}
	walk = func(path string, v reflect.Value) error {
		switch v.Kind() {
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if err := walk(path+"."+v.Type().Field(i).Name, v.Field(i)); err != nil {
					return err
				}
			}
		case reflect.Array:
			for i := 0; i < v.Len(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i)); err != nil {
					return err
				}
			}
		case reflect.Slice:
			if v.Type().Elem().Kind() != reflect.Uint8 {
				// An index built at open (the facets): its elements are views.
				for i := 0; i < v.Len(); i++ {
					if err := walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i)); err != nil {
						return err
					}
				}
				return nil
			}
			return span(path, v.Pointer(), v.Len())
		case reflect.String:
			s := v.String()
			return span(path, uintptr(unsafe.Pointer(unsafe.StringData(s))), len(s))
		case reflect.Int, reflect.Int64:
			out = append(out, fmt.Sprintf("%s=%d", path, v.Int()))
		case reflect.Uint8:
			out = append(out, fmt.Sprintf("%s=%d", path, v.Uint()))
		case reflect.Interface:
			out = append(out, fmt.Sprintf("%s nil=%v", path, v.IsNil()))
		default:
			return fmt.Errorf("%s: a %s the walk does not know", path, v.Kind())
		}
		return nil
	}
	err := walk("views", reflect.ValueOf(&img.v).Elem())
	return out, err
}

// SetFirstRead sets how much OpenLazy reads at once and returns a func
// restoring it.
func SetFirstRead(n int64) (restore func()) {
	old := firstRead
	firstRead = n
	return func() { firstRead = old }
}

// CaseKeys returns the offset of the catalog part's case_keys inside the
// part, and how many there are.
func (img *Image) CaseKeys() (offset, n int) {
	t := img.part.Table()
	return int(t.Vector(flatbuffers.UOffsetT(t.Offset(caseKeysSlot)))), img.part.CaseKeysLength()
}
