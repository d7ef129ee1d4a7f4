package kgimgwrite

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/schema/kgfb"
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

func (w *writer) buildNodes(b *flatbuffers.Builder) flatbuffers.UOffsetT {
	nodes := w.res.Nodes
	cols := make([]*strCol, len(nodeStringProps))
	for i := range cols {
		cols[i] = newStrCol()
	}
	normCode, prov := newStrCol(), newStrCol()
	grades, tags, labels := newListCol(), newListCol(), newListCol()
	kind := make([]byte, len(nodes))
	isCurrent := make([]byte, len(nodes))
	order := make([]uint32, len(nodes))
	present := make([]uint32, len(nodes))
	cp := w.res.Profile.CodeSearchPolicy
	for i, n := range nodes {
		kind[i] = byte(nodeKind(n.Kind))
		if n.IsCurrent {
			isCurrent[i] = 1
		}
		order[i] = uint32(n.Order)
		present[i] = nodePresent(n)
		cols[0].addUnique(n.ID)
		for c := 1; c < len(nodeStringProps); c++ {
			cols[c].add(n.Str(nodeStringProps[c]))
		}
		grades.add(n.GradeLevel)
		tags.add(n.Tags)
		labels.add(n.Labels)
		code := ""
		if c := n.Str(delivery.NStatementCode); c != "" && n.Kind == delivery.KindItem && cp.Availability != "none" {
			code = profile.NormalizeCode(cp, c)
		}
		normCode.add(code)
		w.normCodes = append(w.normCodes, code)
		prov.addBytes(w.res.EntityProvenance[n.ID])
	}
	colOffs := make([]flatbuffers.UOffsetT, len(cols))
	for i, c := range cols {
		colOffs[i] = c.build(b)
	}
	gradeOff, tagOff, labelOff := grades.build(b), tags.build(b), labels.build(b)
	normOff, provOff := normCode.build(b), prov.build(b)
	kindOff, curOff := b.CreateByteVector(kind), b.CreateByteVector(isCurrent)
	orderOff, presentOff := u32Vector(b, order), u32Vector(b, present)
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
	cols := make([]*strCol, len(relStringProps))
	for i := range cols {
		cols[i] = newStrCol()
	}
	label := make([]byte, len(rels))
	src := make([]uint32, len(rels))
	tgt := make([]uint32, len(rels))
	order := make([]uint32, len(rels))
	present := make([]uint32, len(rels))
	conf := make([]float64, len(rels))
	for i, r := range rels {
		label[i] = byte(relLabel(r.Label))
		src[i], tgt[i] = w.ord[r.Source], w.ord[r.Target]
		order[i] = uint32(r.Order)
		present[i] = relPresent(r)
		conf[i] = r.Confidence
		cols[0].addUnique(r.ID)
		for c := 1; c < len(relStringProps); c++ {
			cols[c].add(r.Str(relStringProps[c]))
		}
	}
	colOffs := make([]flatbuffers.UOffsetT, len(cols))
	for i, c := range cols {
		colOffs[i] = c.build(b)
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
