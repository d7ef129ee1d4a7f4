package kgimg

import (
	"sort"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/kgc-project/kgc/kgimg/format"
	"github.com/kgc-project/kgc/kgimg/kgfb"
)

// What a catalog needs of an image (its identity, manifest and profile
// bytes, prompt config, compiled profile, manifest and progression summary)
// is read from the catalog part in format 3, and from the Image table
// itself in formats 1 and 2. A format 3 image opened by OpenLazy has only
// its header and catalog part verified; these accessors read nothing else.

// verifyPart checks the catalog part of a format 3 image: file holds the
// header (at least) and part the part's bytes. It returns the part's root.
func verifyPart(h Header, head, part []byte) (*kgfb.CatalogPart, error) {
	if err := checkPart(h, head, part); err != nil {
		return nil, err
	}
	if len(part) < 8 || string(part[4:8]) != format.CatalogPartIdentifier {
		return nil, corrupt("catalog_part", int64(h.PartOffset), "the catalog part has no %q identifier", format.CatalogPartIdentifier)
	}
	w := &walker{buf: part, base: int64(h.PartOffset), budget: int64(len(part))/4 + 16}
	root, ok := w.indirect("catalog_part", 0)
	if !ok {
		return nil, w.err
	}
	w.table(root, catalogPartDesc, 0)
	if w.err != nil {
		return nil, w.err
	}
	cp := kgfb.GetRootAsCatalogPart(part, 0)
	if v := cp.FormatVersion(); v != h.Version {
		return nil, corrupt("catalog_part", int64(h.PartOffset), "the catalog part says format %d, the header %d", v, h.Version)
	}
	for i := 1; i < cp.CaseKeysLength(); i++ {
		if cp.CaseKeys(i-1) >= cp.CaseKeys(i) {
			return nil, corrupt("catalog_part", int64(h.PartOffset), "the catalog part's case_keys are not in ascending order at %d", i)
		}
	}
	return cp, nil
}

// caseKeysSlot is the vtable offset of CatalogPart.case_keys.
var caseKeysSlot = flatbuffers.VOffsetT(4 + 2*slot(catalogPartDesc, "case_keys"))

// MayHold reports whether the image may hold a node with one of these CASE
// UUIDs or URIs, from its catalog part alone (nothing of the payload is
// read, verified or not): false only when the part's case_keys hold none of
// their keys. An image without case_keys (formats 1 and 2, and format 3
// images written before it) may hold any.
func (img *Image) MayHold(ids ...string) bool {
	cp := img.part
	if cp == nil {
		return true
	}
	if t := cp.Table(); t.Offset(caseKeysSlot) == 0 {
		return true
	}
	n := cp.CaseKeysLength()
	for _, id := range ids {
		if id == "" {
			continue
		}
		k := format.CaseKey(id)
		i := sort.Search(n, func(i int) bool { return cp.CaseKeys(i) >= k })
		if i < n && cp.CaseKeys(i) == k {
			return true
		}
	}
	return false
}

func (img *Image) identityTable() *kgfb.Identity {
	if img.part != nil {
		return img.part.Identity(nil)
	}
	return img.root.Identity(nil)
}

// ManifestJSON returns the exact manifest bytes.
func (img *Image) ManifestJSON() []byte {
	if img.part != nil {
		return img.part.ManifestJsonBytes()
	}
	return img.root.ManifestJsonBytes()
}

// ProfileJSON returns the exact profile bytes.
func (img *Image) ProfileJSON() []byte {
	if img.part != nil {
		return img.part.ProfileJsonBytes()
	}
	return img.root.ProfileJsonBytes()
}

// PromptConfigJSON returns the exact prompt-config bytes (nil when none).
func (img *Image) PromptConfigJSON() []byte {
	if img.part != nil {
		return img.part.PromptConfigJsonBytes()
	}
	return img.root.PromptConfigJsonBytes()
}

// compiledProfile returns the stored compiled profile (Open refuses an image
// without one).
func (img *Image) compiledProfile() *kgfb.CompiledProfile {
	if img.part != nil {
		return img.part.CompiledProfile(nil)
	}
	return img.root.CompiledProfile(nil)
}

// compiledManifest returns the stored compiled manifest (Open refuses an
// image without one).
func (img *Image) compiledManifest() *kgfb.CompiledManifest {
	if img.part != nil {
		return img.part.CompiledManifest(nil)
	}
	return img.root.CompiledManifest(nil)
}

// compiledSummary returns the stored compiled progression summary (nil when
// the package has none).
func (img *Image) compiledSummary() *kgfb.CompiledProgressionSummary {
	if img.part != nil {
		return img.part.CompiledProgressionSummary(nil)
	}
	return img.root.CompiledProgressionSummary(nil)
}
