package diff

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kgc-project/kgc/compiler/childorder"
	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/internal/safefile"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/schema/manifest"
)

// Load reads one side of a comparison: a package directory, through the
// validation gate with opts (a package with error findings is a
// *gate.RefusedError), or a .kgimg image, opened and verified by kgimg and
// read in place. Only the compact Snapshot is kept: the gate's decoded
// package is dropped when Load returns; an image stays mapped (not on the
// heap) until Close, for the statements a report shows.
func Load(path string, opts gate.Options) (*Snapshot, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return loadPackage(path, opts)
	}
	img, err := kgimg.Open(path)
	if err != nil {
		return nil, err
	}
	if err := img.VerifyDeep(); err != nil { // as kgc verify: a resealed corrupt image is refused
		img.Close()
		return nil, err
	}
	return fromImage(path, img), nil
}

// loadPackage runs the gate and keeps the compact form of what it decoded.
func loadPackage(dir string, opts gate.Options) (*Snapshot, error) {
	res, err := gate.Run(dir, opts)
	if err != nil {
		return nil, err
	}
	if !res.Valid() {
		return nil, fmt.Errorf("%w; it cannot be compared", &gate.RefusedError{Dir: dir, Result: res})
	}
	s := fromGate(dir, res)
	s.texts = &packageTexts{path: filepath.Join(dir, filepath.FromSlash(res.Manifest.Path(manifest.Nodes)))}
	return s, nil
}

// fromGate returns the compact snapshot of a package the gate accepted
// (statements are not available from it: Compare reports their hashes only
// unless Load made the snapshot).
func fromGate(source string, res *gate.Result) *Snapshot {
	s := newSnapshot(source, "package")
	s.FrameworkID, s.SnapshotID = res.Manifest.FrameworkID, res.Manifest.SnapshotID
	index := make(map[string]int32, len(res.Nodes))
	for _, n := range res.Nodes {
		var kind uint8
		switch n.Kind {
		case delivery.KindFramework:
			s.RootID = strings.Clone(n.ID)
			continue
		case delivery.KindItem:
			kind = kindItem
		case delivery.KindComponent:
			kind = kindComponent
		default:
			continue
		}
		index[n.ID] = int32(len(s.Nodes))
		desc, has := n.Prop(delivery.NDescription)
		s.Nodes = append(s.Nodes, node{
			ID: strings.Clone(n.ID), CaseUUID: strings.Clone(n.Str(delivery.NCaseIdentifierUUID)),
			Code: strings.Clone(n.Str(delivery.NStatementCode)), Hash: statementHash(desc, has),
			Grades: s.internGrades(n.GradeLevel), Parent: noParent, Kind: kind,
			Type: s.internType(n.Str(delivery.NStatementType)),
		})
	}
	s.meta = metadata(res.Manifest, res.Profile)
	at := func(id string) (int32, bool) {
		if id == s.RootID {
			return rootParent, true
		}
		i, ok := index[id]
		return i, ok
	}
	// The children in the order kgc build writes them (package childorder).
	pos := make(map[string]int, len(res.Nodes))
	for i, n := range res.Nodes {
		pos[n.ID] = i
	}
	rows, basis := childorder.Rows(res.Nodes, res.Relationships, func(id string) (int, bool) { i, ok := pos[id]; return i, ok })
	for i, row := range rows {
		parent, ok := at(res.Nodes[i].ID)
		if !ok || len(row) == 0 {
			continue
		}
		for _, e := range row {
			if c, ok := index[res.Relationships[e].Target]; ok {
				s.children[parent] = append(s.children[parent], c)
			}
		}
		s.basis[parent] = basis[i].String()
	}
	for _, p := range res.PublisherRelations {
		r := pubRel{Type: strings.Clone(p.Type)}
		end := func(e delivery.RelationEnd) (int32, externalRef) {
			if i, ok := at(e.NodeID); ok && !e.External() {
				return i, externalRef{}
			}
			return external, externalRef{URI: strings.Clone(e.URI), Identifier: strings.Clone(e.Identifier), Title: strings.Clone(e.Title)}
		}
		r.From, r.FromExt = end(p.Origin)
		r.To, r.ToExt = end(p.Destination)
		if p.Sequence != nil {
			r.Seq, r.HasSeq = *p.Sequence, true
		}
		s.pub = append(s.pub, r)
	}
	for _, r := range res.Relationships {
		from, okFrom := index[r.Source]
		to, okTo := index[r.Target]
		switch r.Label {
		case delivery.HasChild:
			if r.Source == s.RootID {
				from, okFrom = rootParent, true
			}
			if okFrom && okTo {
				s.addParent(to, from)
			}
		case delivery.BuildsTowards, delivery.RelatesTo, delivery.Supports:
			if okFrom && okTo {
				t := map[string]uint8{delivery.BuildsTowards: edgeBuildsTowards, delivery.RelatesTo: edgeRelatesTo, delivery.Supports: edgeSupports}[r.Label]
				s.Edges = append(s.Edges, edge{From: from, To: to, Type: t, Conf: r.Confidence, HasConf: r.Has(delivery.RSupportConfidence)})
			}
		}
	}
	s.normalizeEdges()
	return s
}

// fromImage returns the compact snapshot of an image, its nodes in export
// order; the image stays open as the snapshot's statement source.
func fromImage(path string, img *kgimg.Image) *Snapshot {
	s := newSnapshot(path, "image")
	id := img.Identity()
	s.FrameworkID, s.SnapshotID = id.FrameworkID, id.SnapshotID
	s.RootID = strings.Clone(img.NodeString(img.RootNode(), kgimg.NodeID))
	var order []uint32
	for n := 0; n < img.NodeCount(); n++ {
		if k := img.NodeKind(uint32(n)); k == kgimg.ItemNode || k == kgimg.ComponentNode {
			order = append(order, uint32(n))
		}
	}
	slices.SortFunc(order, func(a, b uint32) int { return cmp.Compare(img.NodeOrder(a), img.NodeOrder(b)) })
	index := make([]int32, img.NodeCount())
	for i := range index {
		index[i] = noParent
	}
	for i, n := range order {
		index[n] = int32(i)
		kind := kindItem
		if img.NodeKind(n) == kgimg.ComponentNode {
			kind = kindComponent
		}
		s.Nodes = append(s.Nodes, node{
			ID: strings.Clone(img.NodeString(n, kgimg.NodeID)), CaseUUID: strings.Clone(img.NodeString(n, kgimg.NodeCaseIdentifierUUID)),
			Code:   strings.Clone(img.NodeString(n, kgimg.NodeStatementCode)),
			Hash:   statementHash(img.NodeString(n, kgimg.NodeDescription), img.NodeHas(n, kgimg.PDescription)),
			Grades: s.internGrades(img.NodeGradeLevel(n).Strings()), Parent: noParent, Kind: kind,
			Type: s.internType(img.NodeString(n, kgimg.NodeStatementType)),
		})
	}
	root := img.RootNode()
	s.meta = metadata(img.CompiledManifest(), img.CompiledProfile().Decode())
	// The children as the image orders them (kgc build, package childorder).
	hasChild := img.Adjacency(kgimg.HasChild, kgimg.Out)
	for _, n := range append([]uint32{root}, order...) {
		kids, _ := hasChild.Row(n)
		if kids.Len() == 0 {
			continue
		}
		parent := rootParent
		if n != root {
			parent = index[n]
		}
		for k := range kids.Len() {
			if c := index[kids.At(k)]; c >= 0 {
				s.children[parent] = append(s.children[parent], c)
			}
		}
		s.basis[parent] = img.ChildOrder(n).Basis()
	}
	for i := range img.PublisherRelationCount() {
		r := pubRel{Type: img.PublisherKindOf(i).String()}
		end := func(side kgimg.Side) (int32, externalRef) {
			n := img.PublisherEnd(i, side)
			switch {
			case n == root:
				return rootParent, externalRef{}
			case int(n) < len(index) && index[n] >= 0:
				return index[n], externalRef{}
			}
			uri, id, title := img.PublisherExternal(i, side)
			return external, externalRef{URI: strings.Clone(uri), Identifier: strings.Clone(id), Title: strings.Clone(title)}
		}
		r.From, r.FromExt = end(kgimg.Origin)
		r.To, r.ToExt = end(kgimg.Destination)
		r.Seq, r.HasSeq = img.PublisherSequence(i)
		s.pub = append(s.pub, r)
	}
	for r := 0; r < img.RelationshipCount(); r++ {
		src, dst := img.RelSource(uint32(r)), img.RelTarget(uint32(r))
		from, to := index[src], index[dst]
		switch img.RelLabel(uint32(r)) {
		case kgimg.HasChild:
			if src == root {
				from = rootParent
			}
			if from != noParent && to >= 0 {
				s.addParent(to, from)
			}
		case kgimg.BuildsTowards, kgimg.RelatesTo, kgimg.Supports:
			if from >= 0 && to >= 0 {
				t := map[kgimg.RelLabel]uint8{kgimg.BuildsTowards: edgeBuildsTowards, kgimg.RelatesTo: edgeRelatesTo, kgimg.Supports: edgeSupports}[img.RelLabel(uint32(r))]
				hasConf := img.RelHas(uint32(r), kgimg.RPSupportConfidence)
				conf := 0.0
				if hasConf {
					conf = img.RelConfidence(uint32(r))
				}
				s.Edges = append(s.Edges, edge{From: from, To: to, Type: t, Conf: conf, HasConf: hasConf})
			}
		}
	}
	s.normalizeEdges()
	s.texts = &imageTexts{img: img, order: order}
	return s
}

// imageTexts reads statements from the mapped image.
type imageTexts struct {
	img   *kgimg.Image
	order []uint32 // snapshot node index → image node
}

func (t *imageTexts) statements(_ *Snapshot, idx []int32) (map[int32]string, error) {
	out := make(map[int32]string, len(idx))
	for _, i := range idx {
		out[i] = strings.Clone(t.img.NodeString(t.order[i], kgimg.NodeDescription))
	}
	return out, nil
}

func (t *imageTexts) close() error { return t.img.Close() }

// packageTexts reads statements by streaming the package's nodes file once
// more, keeping only the wanted ones; each must hash as it did when the gate
// read it, or the package changed under the comparison.
type packageTexts struct{ path string }

func (t *packageTexts) statements(s *Snapshot, idx []int32) (map[int32]string, error) {
	out := make(map[int32]string, len(idx))
	if len(idx) == 0 {
		return out, nil
	}
	want := make(map[string]int32, len(idx))
	for _, i := range idx {
		want[s.Nodes[i].ID] = i
	}
	f, _, err := safefile.OpenPath(t.path, 0) // the gate read it; a FIFO swapped in since is refused, not waited on
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 256<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if v, _ := jsonv.Parse(line); v != nil {
				if id := v.Get("identifier"); id != nil {
					if i, ok := want[id.Str]; ok {
						desc := v.Get("properties").Get("description")
						text, has := "", desc != nil && desc.Kind == jsonv.String
						if has {
							text = desc.Str
						}
						if statementHash(text, has) != s.Nodes[i].Hash {
							return nil, fmt.Errorf("%s changed while it was compared (the statement of %s)", t.path, id.Str)
						}
						out[i] = text
						delete(want, id.Str)
					}
				}
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(want) > 0 {
		return nil, fmt.Errorf("%s changed while it was compared (%d node(s) no longer found)", t.path, len(want))
	}
	return out, nil
}

func (t *packageTexts) close() error { return nil }
