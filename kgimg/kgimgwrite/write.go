// Package kgimgwrite compiles a package that passed the gate into a .kgimg
// image (kgimg/kgimg.fbs): columns of nodes and relationships, sorted ID
// indexes, CSR adjacency per label in both directions, roaring facet bitmaps,
// search postings and the code order built with the profile's normalisation,
// per-edge provenance in its 64 partitions, and the raw artifacts the package's
// rights allow to be served. The same inputs give the same bytes.
package kgimgwrite

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/kgimg/format"
	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/kgimg/lpsummaryfb"
	"github.com/kgc-project/kgc/kgimg/manifestfb"
	"github.com/kgc-project/kgc/kgimg/profilefb"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
)

// Options configure a build.
type Options struct {
	// Compiler names the writer in the image's identity (e.g. "kgc devel").
	Compiler string
	// Grown, when set, is told the image's size so far (the bytes written
	// into its buffer, which BuildImage keeps outside the Go heap where it
	// can) after each of its sections: a caller that bounds the process's
	// memory lowers the Go heap's share as the image takes its own.
	Grown func(imageBytes int)
}

// ReadArtifact returns the bytes of a declared artifact (package-relative path).
type ReadArtifact func(path string) ([]byte, error)

type writer struct {
	res  *gate.Result
	read ReadArtifact
	opts Options
	// index finds a node by ID (the gate's, or a map of res.Nodes).
	index func(id string) (int, bool)
	// src and tgt are each relationship's endpoints (the gate's, or found
	// through index; -1: not a node).
	src, tgt  []int32
	normCodes []string
	// childRows are the hasChild out-rows in curriculum order (neighbors,
	// edges), childBasis what each node's order rests on (order.go).
	childRows  [][2][]uint32
	childBasis []byte
	// curPos is each node's curriculum position (order.go).
	curPos []uint32
	// partStart and partLen locate the catalog part in the payload once
	// build has finished it.
	partStart, partLen int
}

// ErrNotValid is returned when asked to build a package with error findings.
var ErrNotValid = errors.New("kgimgwrite: the package did not pass the gate")

// ErrTooLarge is returned when the image would not fit in one FlatBuffers
// buffer (2 GiB: offsets are 32-bit).
var ErrTooLarge = errors.New("kgimgwrite: the image would exceed the 2 GiB FlatBuffers limit")

// Build compiles a valid gate result into image file bytes. read supplies the
// artifacts' bytes: each artifact the image embeds is read and checked
// against its manifest checksum again, so bytes changed since validation are
// refused; one it does not embed is recorded at the size the gate measured
// (res.ArtifactSizes; read when the result has none).
func Build(res *gate.Result, read ReadArtifact, opts Options) ([]byte, error) {
	img, err := BuildImage(res, read, opts)
	if err != nil {
		return nil, err
	}
	defer img.Release()
	return append([]byte(nil), img.Bytes...), nil
}

// Image is a built image held outside the Go heap where the platform allows
// (see newBuffer): Bytes is the file, valid until Release.
type Image struct {
	Bytes   []byte
	release func()
}

// Release frees the image's memory; nothing may read Bytes (or anything
// opened over it) afterwards.
func (img *Image) Release() {
	img.Bytes = nil
	if img.release != nil {
		img.release()
		img.release = nil
	}
}

// BuildImage is Build without the copy into the Go heap: for a large
// package, the image's memory is only what it writes (kgc build).
func BuildImage(res *gate.Result, read ReadArtifact, opts Options) (*Image, error) {
	if !res.Valid() || res.Manifest == nil || res.Profile == nil {
		return nil, ErrNotValid
	}
	w := &writer{res: res, read: read, opts: opts, index: res.NodeIndex}
	if w.index == nil {
		ord := make(map[string]int, len(res.Nodes))
		for i, n := range res.Nodes {
			ord[n.ID] = i
		}
		w.index = func(id string) (int, bool) { i, ok := ord[id]; return i, ok }
	}
	w.src, w.tgt = res.Sources, res.Targets
	if rels := res.Relationships; len(w.src) != len(rels) || len(w.tgt) != len(rels) {
		w.src, w.tgt = make([]int32, len(rels)), make([]int32, len(rels))
		for i, r := range rels {
			w.src[i], w.tgt[i] = -1, -1
			if j, ok := w.index(r.Source); ok {
				w.src[i] = int32(j)
			}
			if j, ok := w.index(r.Target); ok {
				w.tgt[i] = int32(j)
			}
		}
	}
	// The builder starts at an upper estimate of the image so that it never
	// grows (each growth held the old and the doubled buffer at once); the
	// pages it does not write stay untouched. The header then goes into the
	// free space before the payload instead of a copy of the whole image.
	buf, release := newBuffer(estimate(res))
	b := flatbuffers.NewBuilder(0)
	b.Bytes = buf
	b.Reset()
	payload, err := w.buildBounded(b)
	if err != nil {
		release()
		return nil, err
	}
	if file, ok := format.SealInPlace(b.Bytes, int(b.Head()), w.partStart, w.partLen); ok && len(file) == format.HeaderSize+len(payload) {
		// b.Bytes may have grown past the estimate into the heap; then the
		// mapping is no longer referenced and the release only frees it.
		return &Image{Bytes: file, release: release}, nil
	}
	file := format.Seal(payload, w.partStart, w.partLen) // a copy: payload is in the builder's buffer
	release()
	return &Image{Bytes: file}, nil
}

// estimate is an upper estimate of an image's payload: its strings (which it
// stores at most twice: as columns and in search postings) and a fixed
// allowance per record, at least 1 MiB, at most the builder's 2 GiB ceiling.
func estimate(res *gate.Result) int {
	var n int64 = 1 << 20
	for _, node := range res.Nodes {
		n += 256 + 2*int64(len(node.ID))
		for p := delivery.NodeProp(0); p < delivery.NumNodeProps; p++ {
			n += 2 * int64(len(node.Str(p)))
		}
	}
	for _, r := range res.Relationships {
		n += 128 + int64(len(r.ID)+len(r.Source)+len(r.Target))
		for p := delivery.RelProp(0); p < delivery.NumRelProps; p++ {
			n += int64(len(r.Str(p)))
		}
	}
	for _, r := range res.PublisherRelations {
		n += 128 + int64(len(r.ID))
		for _, e := range []delivery.RelationEnd{r.Origin, r.Destination} {
			n += int64(len(e.URI) + len(e.Identifier) + len(e.Title))
		}
	}
	for _, m := range []map[string][]byte{res.EntityProvenance, res.Provenance, res.ProgressionReports} {
		for k, v := range m {
			n += 32 + int64(len(k)+len(v))
		}
	}
	return int(min(n, 1<<31-1))
}

// buildBounded runs build, turning the FlatBuffers builder's panic at its
// 2 GiB ceiling into ErrTooLarge.
func (w *writer) buildBounded(b *flatbuffers.Builder) ([]byte, error) {
	return capped(func() ([]byte, error) { return w.build(b) }, func() string {
		return fmt.Sprintf("%d nodes, %d relationships, %d provenance records", len(w.res.Nodes), len(w.res.Relationships), len(w.res.Provenance))
	})
}

// capped runs build and turns the FlatBuffers builder's "cannot grow buffer
// beyond 2 gigabytes" panic into ErrTooLarge; any other panic is re-raised.
func capped(build func() ([]byte, error), describe func() string) (payload []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			if strings.Contains(fmt.Sprint(r), "beyond 2 gigabytes") {
				payload, err = nil, fmt.Errorf("%w (%s)", ErrTooLarge, describe())
				return
			}
			panic(r)
		}
	}()
	return build()
}

func sum(b []byte) string { return ids.Sha256(b) }

func (w *writer) build(b *flatbuffers.Builder) ([]byte, error) {
	grown := func() { w.grown(b) }
	artifacts, err := w.buildArtifacts(b)
	if err != nil {
		return nil, err
	}
	grown()
	// The sections that only read the package (the normalized codes, the
	// sort orders, facets, search indexes and catalog part) are computed
	// in one goroutine, in the order the builder needs them, while this
	// one orders the hierarchy and writes the records: the builder writes
	// every section in its fixed order either way. Each result is handed
	// over in a buffered channel, so the goroutine ends even when this one
	// stops early.
	normDone := make(chan struct{})
	ordersC, facetsC, searchC, partC := make(chan [4][]uint32, 1), make(chan []*facetValue, 1), make(chan *searchIndexes, 1), make(chan []byte, 1)
	go func() {
		w.normCodes = w.normalizedCodes()
		close(normDone)
		ordersC <- w.sortOrders()
		facetsC <- w.prepareFacets()
		searchC <- w.prepareSearch()
		partC <- w.buildCatalogPart()
	}()
	w.orderChildren()
	w.curriculumPositions()
	<-normDone
	nodes := w.buildNodes(b)
	grown()
	rels := w.buildRelationships(b)
	grown()
	nodeID, caseUUID, caseURI, relID := writeOrders(b, <-ordersC)
	adj := w.buildAdjacency(b)
	grown()
	facets := writeFacets(b, <-facetsC)
	search := writeSearch(b, <-searchC)
	grown()
	prov, hasProv := w.buildProvenance(b)
	pub, hasPub := w.buildPublisher(b)
	grown()
	partVec := b.CreateByteVector(<-partC)
	root := uint32(0)
	for i, n := range w.res.Nodes {
		if nodeKind(n.Kind) == kgfb.NodeKindFramework {
			root = uint32(i)
			break
		}
	}
	kgfb.ImageStart(b)
	kgfb.ImageAddFormatVersion(b, format.FormatVersion)
	kgfb.ImageAddNodes(b, nodes)
	kgfb.ImageAddRelationships(b, rels)
	kgfb.ImageAddRoot(b, root)
	kgfb.ImageAddNodeIdOrder(b, nodeID)
	kgfb.ImageAddCaseUuidOrder(b, caseUUID)
	kgfb.ImageAddCaseUriOrder(b, caseURI)
	kgfb.ImageAddRelationshipIdOrder(b, relID)
	kgfb.ImageAddAdjacency(b, adj)
	kgfb.ImageAddFacets(b, facets)
	kgfb.ImageAddSearch(b, search)
	if hasProv {
		kgfb.ImageAddProvenance(b, prov)
	}
	kgfb.ImageAddArtifacts(b, artifacts)
	if hasPub {
		kgfb.ImageAddPublisherRelations(b, pub)
	}
	kgfb.ImageAddCatalogPart(b, partVec)
	b.FinishWithFileIdentifier(kgfb.ImageEnd(b), []byte(format.FileIdentifier))
	payload := b.FinishedBytes()
	// The part's bytes follow its vector's length, counted from the end of
	// the buffer (FlatBuffers offsets are).
	w.partStart = len(payload) - int(partVec) + 4
	w.partLen = int(binary.LittleEndian.Uint32(payload[w.partStart-4:]))
	return payload, nil
}

// buildCatalogPart builds the catalog part (kgfb.CatalogPart) as a
// FlatBuffers buffer of its own: the identity, the manifest and profile
// bytes, the prompt config, the compiled profile, manifest and progression
// summary. Every offset in it stays inside it, so it is checked alone.
func (w *writer) buildCatalogPart() []byte {
	b := flatbuffers.NewBuilder(len(w.res.ManifestBytes) + len(w.res.ProfileBytes) + len(w.res.PromptBytes) + 64<<10)
	compiledProfile := profilefb.Build(b, w.res.Profile)
	compiledManifest := manifestfb.Build(b, w.res.Manifest)
	identity := w.buildIdentity(b)
	manifestBytes := b.CreateByteVector(w.res.ManifestBytes)
	profileBytes := b.CreateByteVector(w.res.ProfileBytes)
	var prompts flatbuffers.UOffsetT
	if w.res.PromptBytes != nil {
		prompts = b.CreateByteVector(w.res.PromptBytes)
	}
	var compiledSummary flatbuffers.UOffsetT
	if lp := progressionSummary(w.res); lp != nil {
		compiledSummary = lpsummaryfb.Build(b, lp)
	}
	keys := format.CaseKeys(w.caseIdentifiers())
	kgfb.CatalogPartStartCaseKeysVector(b, len(keys))
	for i := len(keys) - 1; i >= 0; i-- {
		b.PrependUint64(keys[i])
	}
	caseKeys := b.EndVector(len(keys))
	kgfb.CatalogPartStart(b)
	kgfb.CatalogPartAddFormatVersion(b, format.FormatVersion)
	kgfb.CatalogPartAddIdentity(b, identity)
	kgfb.CatalogPartAddManifestJson(b, manifestBytes)
	kgfb.CatalogPartAddProfileJson(b, profileBytes)
	if w.res.PromptBytes != nil {
		kgfb.CatalogPartAddPromptConfigJson(b, prompts)
	}
	kgfb.CatalogPartAddCompiledProfile(b, compiledProfile)
	kgfb.CatalogPartAddCompiledManifest(b, compiledManifest)
	if compiledSummary != 0 {
		kgfb.CatalogPartAddCompiledProgressionSummary(b, compiledSummary)
	}
	kgfb.CatalogPartAddCaseKeys(b, caseKeys)
	b.FinishWithFileIdentifier(kgfb.CatalogPartEnd(b), []byte(format.CatalogPartIdentifier))
	return b.FinishedBytes()
}

// caseIdentifiers yields every node's CASE UUID and CASE URI (the catalog
// part's case_keys).
func (w *writer) caseIdentifiers() func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for i := range w.res.Nodes {
			for _, p := range [...]delivery.NodeProp{delivery.NCaseIdentifierUUID, delivery.NCaseIdentifierURI} {
				if v, ok := w.res.Nodes[i].Prop(p); ok && v != "" && !yield(v) {
					return
				}
			}
		}
	}
}

// buildArtifacts records every declared artifact and embeds those the rights
// allow to be served.
func (w *writer) buildArtifacts(b *flatbuffers.Builder) (flatbuffers.UOffsetT, error) {
	m := w.res.Manifest
	offs := make([]flatbuffers.UOffsetT, 0, len(m.Artifacts))
	for _, a := range m.Artifacts { // sorted by name
		class, mime := manifest.ExposureOf(a.Name, a.Path)
		embed := manifest.Allows(m.Rights, class)
		// An artifact the image does not embed is recorded as the gate
		// measured it (what the image holds of it, the decoded records, is
		// what the gate validated); one it embeds is read and checked again,
		// so bytes changed since validation are refused.
		size, measured := w.res.ArtifactSizes[a.Path]
		var data []byte
		if embed || !measured {
			var err error
			if data, err = w.read(a.Path); err != nil {
				return 0, fmt.Errorf("kgimgwrite: artifact %s: %w", a.Name, err)
			}
			if got := sum(data); got != m.Checksums[a.Path] {
				return 0, fmt.Errorf("kgimgwrite: artifact %s changed since validation (sha256 %s, manifest %s)", a.Name, got, m.Checksums[a.Path])
			}
			size = int64(len(data))
		}
		var bytesOff flatbuffers.UOffsetT
		if embed && len(data) > 0 {
			bytesOff = b.CreateByteVector(data)
		}
		name, path, sha, mt := b.CreateString(a.Name), b.CreateString(a.Path), b.CreateString(m.Checksums[a.Path]), b.CreateString(mime)
		kgfb.ArtifactStart(b)
		kgfb.ArtifactAddName(b, name)
		kgfb.ArtifactAddPath(b, path)
		kgfb.ArtifactAddSha256(b, sha)
		kgfb.ArtifactAddSize(b, uint64(size))
		kgfb.ArtifactAddMime(b, mt)
		kgfb.ArtifactAddExposure(b, kgfb.Exposure(class))
		kgfb.ArtifactAddEmbedded(b, embed)
		if embed && len(data) > 0 {
			kgfb.ArtifactAddBytes(b, bytesOff)
		}
		offs = append(offs, kgfb.ArtifactEnd(b))
	}
	return tableVector(b, offs), nil
}

func (w *writer) buildIdentity(b *flatbuffers.Builder) flatbuffers.UOffsetT {
	m := w.res.Manifest
	strs := []string{m.FrameworkID, m.SnapshotID, m.GraphPackageID, m.GraphType, m.Profile.ProfileID,
		m.Profile.ProfileVersion, m.Profile.Sha256, sum(w.res.ManifestBytes), w.opts.Compiler}
	offs := make([]flatbuffers.UOffsetT, len(strs))
	for i, s := range strs {
		offs[i] = b.CreateString(s)
	}
	var prompt flatbuffers.UOffsetT
	if w.res.Prompts != nil {
		prompt = b.CreateString(w.res.Prompts.Sha256)
	}
	kgfb.IdentityStart(b)
	kgfb.IdentityAddFrameworkId(b, offs[0])
	kgfb.IdentityAddSnapshotId(b, offs[1])
	kgfb.IdentityAddGraphPackageId(b, offs[2])
	kgfb.IdentityAddGraphType(b, offs[3])
	kgfb.IdentityAddPackageRevision(b, uint32(m.PackageRevision))
	kgfb.IdentityAddProfileId(b, offs[4])
	kgfb.IdentityAddProfileVersion(b, offs[5])
	kgfb.IdentityAddProfileSha256(b, offs[6])
	kgfb.IdentityAddManifestSha256(b, offs[7])
	if w.res.Prompts != nil {
		kgfb.IdentityAddPromptConfigSha256(b, prompt)
	}
	kgfb.IdentityAddCompiler(b, offs[8])
	return kgfb.IdentityEnd(b)
}

// ord returns the position of the node with an ID (0 when there is none:
// in a package that passed the gate every endpoint is a node).
func (w *writer) ord(id string) uint32 {
	i, _ := w.index(id)
	return uint32(i)
}

// grown tells Options.Grown the image's size so far.
func (w *writer) grown(b *flatbuffers.Builder) {
	if w.opts.Grown != nil {
		w.opts.Grown(len(b.Bytes) - int(b.Head()))
	}
}

// ends returns the positions of relationship i's endpoints (0 for an end
// that is not a node, as ord).
func (w *writer) ends(i int) (src, tgt uint32) {
	return uint32(max(w.src[i], 0)), uint32(max(w.tgt[i], 0))
}

// ImageName returns the file name of a snapshot's image.
func ImageName(snapshotID string) string { return snapshotID + ".kgimg" }
