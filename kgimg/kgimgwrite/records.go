package kgimgwrite

import (
	"sync"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/profile"
)

func nodeKind(k delivery.NodeKind) kgfb.NodeKind {
	switch k {
	case delivery.KindItem:
		return kgfb.NodeKindItem
	case delivery.KindComponent:
		return kgfb.NodeKindComponent
	}
	return kgfb.NodeKindFramework
}

func relLabel(label string) kgfb.RelLabel {
	switch label {
	case delivery.Supports:
		return kgfb.RelLabelSupports
	case delivery.BuildsTowards:
		return kgfb.RelLabelBuildsTowards
	case delivery.RelatesTo:
		return kgfb.RelLabelRelatesTo
	}
	return kgfb.RelLabelHasChild
}

// presentBits returns the presence mask of a node's properties.
func nodePresent(n *delivery.Node) uint32 {
	var m uint32
	for p := delivery.NodeProp(0); p < delivery.NumNodeProps; p++ {
		if n.Has(p) {
			m |= 1 << p
		}
	}
	return m
}

func relPresent(r *delivery.Relationship) uint32 {
	var m uint32
	for p := delivery.RelProp(0); p < delivery.NumRelProps; p++ {
		if r.Has(p) {
			m |= 1 << p
		}
	}
	return m
}

// nodeStringProps lists the stored node string columns, in schema order, with
// the delivery property each holds.
var nodeStringProps = []delivery.NodeProp{
	delivery.NIdentifier, // placeholder for id (the envelope identifier)
	delivery.NAcademicSubject, delivery.NAdoptionStatus, delivery.NAttributionStatement, delivery.NAuthor,
	delivery.NCaseIdentifierURI, delivery.NCaseIdentifierUUID, delivery.NDescription,
	delivery.NIdentityKey, delivery.NInLanguage, delivery.NJurisdiction, delivery.NLicense, delivery.NName,
	delivery.NNormalizedStatementType, delivery.NProvider, delivery.NStatementCode, delivery.NStatementType,
}

// fillColumns fills a section's string columns, one value per record: two
// workers, a column at a time (column 0, ids, from id, values the gate makes
// unique; column c of cols from value; cols[0] is unused), each then running
// rest with its number for the section's other columns. Every column is
// independent of the others, and the builder writes them in their fixed
// order afterwards, so the image is the same bytes as when one loop filled
// them.
func fillColumns[R any](records []R, ids *rawCol[string], cols []*strCol, id func(R) string, value func(R, int) string, rest func(worker int)) {
	var wg sync.WaitGroup
	for worker := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := worker; c < len(cols); c += 2 {
				if c == 0 {
					for _, r := range records {
						ids.add(id(r))
					}
					continue
				}
				col := cols[c]
				for _, r := range records {
					col.add(value(r, c))
				}
			}
			rest(worker)
		}()
	}
	wg.Wait()
}

// normalizedCodes are the nodes' statement codes as the profile's code
// search normalizes them ("" for a node without one, or when the profile
// offers no code search).
func (w *writer) normalizedCodes() []string {
	cp := w.res.Profile.CodeSearchPolicy
	out := make([]string, len(w.res.Nodes))
	for i, n := range w.res.Nodes {
		if c := n.Str(delivery.NStatementCode); c != "" && n.Kind == delivery.KindItem && cp.Availability != "none" {
			out[i] = profile.NormalizeCode(cp, c)
		}
	}
	return out
}

func (w *writer) buildNodes(b *flatbuffers.Builder) flatbuffers.UOffsetT {
	nodes := w.res.Nodes
	n := len(nodes)
	ids := newRawCol[string](n, true)
	cols := make([]*strCol, len(nodeStringProps))
	for i := 1; i < len(cols); i++ {
		cols[i] = newRecordCol(n, 0)
	}
	normCode, prov := newRecordCol(n, 0), newRawCol[[]byte](n, false)
	grades, tags, labels := newListCol(), newListCol(), newListCol()
	kind := make([]byte, n)
	isCurrent := make([]byte, n)
	order := make([]uint32, n)
	present := make([]uint32, n)
	fillColumns(nodes, ids, cols, func(nd *delivery.Node) string { return nd.ID },
		func(nd *delivery.Node, c int) string { return nd.Str(nodeStringProps[c]) }, func(worker int) {
			if worker == 0 {
				for _, nd := range nodes {
					grades.add(nd.GradeLevel)
					tags.add(nd.Tags)
					labels.add(nd.Labels)
				}
				return
			}
			for i, nd := range nodes {
				kind[i] = byte(nodeKind(nd.Kind))
				if nd.IsCurrent {
					isCurrent[i] = 1
				}
				order[i] = uint32(nd.Order)
				present[i] = nodePresent(nd)
				normCode.add(w.normCodes[i])
				prov.add(w.res.EntityProvenance[nd.ID])
			}
		})
	colOffs := make([]flatbuffers.UOffsetT, len(cols))
	colOffs[0] = ids.build(b)
	for i, c := range cols[1:] {
		// Each column is garbage once written, and the image has grown.
		colOffs[i+1], cols[i+1] = c.build(b), nil
		w.grown(b)
	}
	gradeOff, tagOff, labelOff := grades.build(b), tags.build(b), labels.build(b)
	normOff, provOff := normCode.build(b), prov.build(b)
	kindOff, curOff := b.CreateByteVector(kind), b.CreateByteVector(isCurrent)
	orderOff, presentOff := u32Vector(b, order), u32Vector(b, present)
	childOrderOff := b.CreateByteVector(w.childBasis)
	curPosOff := u32Vector(b, w.curPos)
	repeatedOff := b.CreateByteVector(repeatedDescriptions(w.res.Nodes))
	kgfb.NodesStart(b)
	kgfb.NodesAddCount(b, uint32(len(nodes)))
	kgfb.NodesAddKind(b, kindOff)
	kgfb.NodesAddSourceExportOrder(b, orderOff)
	kgfb.NodesAddPresent(b, presentOff)
	kgfb.NodesAddIsCurrent(b, curOff)
	kgfb.NodesAddId(b, colOffs[0])
	kgfb.NodesAddAcademicSubject(b, colOffs[1])
	kgfb.NodesAddAdoptionStatus(b, colOffs[2])
	kgfb.NodesAddAttributionStatement(b, colOffs[3])
	kgfb.NodesAddAuthor(b, colOffs[4])
	kgfb.NodesAddCaseIdentifierUri(b, colOffs[5])
	kgfb.NodesAddCaseIdentifierUuid(b, colOffs[6])
	kgfb.NodesAddDescription(b, colOffs[7])
	kgfb.NodesAddIdentityKey(b, colOffs[8])
	kgfb.NodesAddInLanguage(b, colOffs[9])
	kgfb.NodesAddJurisdiction(b, colOffs[10])
	kgfb.NodesAddLicense(b, colOffs[11])
	kgfb.NodesAddName(b, colOffs[12])
	kgfb.NodesAddNormalizedStatementType(b, colOffs[13])
	kgfb.NodesAddProvider(b, colOffs[14])
	kgfb.NodesAddStatementCode(b, colOffs[15])
	kgfb.NodesAddStatementType(b, colOffs[16])
	kgfb.NodesAddGradeLevel(b, gradeOff)
	kgfb.NodesAddTags(b, tagOff)
	kgfb.NodesAddNormalizedCode(b, normOff)
	kgfb.NodesAddProvenanceJson(b, provOff)
	kgfb.NodesAddLabels(b, labelOff)
	kgfb.NodesAddChildOrder(b, childOrderOff)
	kgfb.NodesAddCurriculumPosition(b, curPosOff)
	kgfb.NodesAddRepeatedDescription(b, repeatedOff)
	return kgfb.NodesEnd(b)
}

// relStringProps lists the stored relationship columns (the rest are derived;
// see the schema).
var relStringProps = []delivery.RelProp{
	delivery.RIdentifier, // placeholder for id (the envelope identifier)
	delivery.RAttributionStatement, delivery.RAuthor, delivery.RDescription,
	delivery.RLicense, delivery.RProvider, delivery.RResolutionStatus,
}

func (w *writer) buildRelationships(b *flatbuffers.Builder) flatbuffers.UOffsetT {
	rels := w.res.Relationships
	n := len(rels)
	ids := newRawCol[string](n, true)
	cols := make([]*strCol, len(relStringProps))
	for i := 1; i < len(cols); i++ {
		cols[i] = newRecordCol(n, 0)
	}
	label := make([]byte, n)
	src := make([]uint32, n)
	tgt := make([]uint32, n)
	order := make([]uint32, n)
	present := make([]uint32, n)
	conf := make([]float64, n)
	fillColumns(rels, ids, cols, func(r *delivery.Relationship) string { return r.ID },
		func(r *delivery.Relationship, c int) string { return r.Str(relStringProps[c]) }, func(worker int) {
			if worker == 1 {
				for i, r := range rels {
					label[i] = byte(relLabel(r.Label))
					src[i], tgt[i] = w.ends(i)
					order[i] = uint32(r.Order)
					present[i] = relPresent(r)
					conf[i] = r.Confidence
				}
			}
		})
	colOffs := make([]flatbuffers.UOffsetT, len(cols))
	colOffs[0] = ids.build(b)
	for i, c := range cols[1:] {
		colOffs[i+1], cols[i+1] = c.build(b), nil
		w.grown(b)
	}
	labelOff := b.CreateByteVector(label)
	srcOff, tgtOff := u32Vector(b, src), u32Vector(b, tgt)
	orderOff, presentOff, confOff := u32Vector(b, order), u32Vector(b, present), f64Vector(b, conf)
	kgfb.RelationshipsStart(b)
	kgfb.RelationshipsAddCount(b, uint32(len(rels)))
	kgfb.RelationshipsAddLabel(b, labelOff)
	kgfb.RelationshipsAddSource(b, srcOff)
	kgfb.RelationshipsAddTarget(b, tgtOff)
	kgfb.RelationshipsAddSourceExportOrder(b, orderOff)
	kgfb.RelationshipsAddPresent(b, presentOff)
	kgfb.RelationshipsAddSupportConfidence(b, confOff)
	kgfb.RelationshipsAddId(b, colOffs[0])
	kgfb.RelationshipsAddAttributionStatement(b, colOffs[1])
	kgfb.RelationshipsAddAuthor(b, colOffs[2])
	kgfb.RelationshipsAddDescription(b, colOffs[3])
	kgfb.RelationshipsAddLicense(b, colOffs[4])
	kgfb.RelationshipsAddProvider(b, colOffs[5])
	kgfb.RelationshipsAddResolutionStatus(b, colOffs[6])
	return kgfb.RelationshipsEnd(b)
}

// repeatedDescriptions marks, per node, the standards items whose non-empty
// description another item has word for word.
func repeatedDescriptions(nodes []*delivery.Node) []byte {
	count := map[string]int{}
	for _, n := range nodes {
		if n.Kind == delivery.KindItem {
			if d := n.Str(delivery.NDescription); d != "" {
				count[d]++
			}
		}
	}
	out := make([]byte, len(nodes))
	for i, n := range nodes {
		if n.Kind == delivery.KindItem && count[n.Str(delivery.NDescription)] > 1 {
			out[i] = 1
		}
	}
	return out
}
