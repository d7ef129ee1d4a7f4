package kgimg

import (
	"encoding/binary"
	"unsafe"

	"github.com/kgc-project/kgc/schema/kgfb"
)

// Test hooks (compiled only into this package's tests).

// Reseal recomputes the checksum after a deliberate mutation.
func Reseal(b []byte) []byte {
	binary.LittleEndian.PutUint64(b[sumOffset:], Checksum(b))
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
		"node.id.spans":   offsetIn(img.file, img.n.str[NodeID].spans.b),
		"node.desc.data":  offsetIn(img.file, img.n.str[NodeDescription].bytes(1)),
		"node_id_order":   offsetIn(img.file, img.nodeIDOrder.b),
		"facet0.bitmap":   offsetIn(img.file, bm),
		"facet0.lastword": offsetIn(img.file, bm) + len(bm) - 2,
		"rel.label":       offsetIn(img.file, img.r.label),
		"rel.confidence":  offsetIn(img.file, img.r.confidence),
		"node.is_current": offsetIn(img.file, img.n.isCurrent),
		"payload":         HeaderSize,
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
	if img.prov.records.len() > 0 {
		p["prov.record0"] = offsetIn(img.file, img.prov.records.bytes(0))
	}
	for i := 0; i < img.n.count; i++ {
		if b := img.n.str[NodeProvenanceJSON].bytes(i); len(b) > 0 {
			p["node.provenance"] = offsetIn(img.file, b)
			break
		}
	}
	for i := 0; i < img.prov.relRecord.Len(); i++ {
		if img.prov.relRecord.At(i) != noRecord {
			p["prov.relRecord"] = offsetIn(img.file, img.prov.relRecord.b) + 4*i
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
