package diff

import (
	"cmp"
	"crypto/sha256"
	"slices"
	"strings"
)

// Node kinds of a Snapshot.
const (
	kindItem      uint8 = 1 // a StandardsFrameworkItem: a standard or grouping
	kindComponent uint8 = 2 // a LearningComponent
)

// Progression edge types.
const (
	edgeBuildsTowards uint8 = 1
	edgeRelatesTo     uint8 = 2
	edgeSupports      uint8 = 3
)

// external marks a publisher relation's end outside the package.
const external int32 = -3

// noParent marks an item without a hasChild parent; rootParent an item whose
// parent is the framework node.
const (
	noParent   int32 = -2
	rootParent int32 = -1
)

// node is what a Snapshot keeps of one standards item or learning component:
// the three match keys, the statement's hash (never its text), the grade list
// (an index into the snapshot's interned lists) and the first hasChild parent.
// Strings are copies owned by the snapshot.
type node struct {
	ID       string
	CaseUUID string
	Code     string
	// Hash is the first 16 bytes of the SHA-256 of the statement (the
	// description property) with a presence byte in front.
	Hash   [16]byte
	Grades uint32
	// Parent is the index of the first hasChild parent among the snapshot's
	// nodes, rootParent or noParent; further parents are in Snapshot.more.
	Parent int32
	Kind   uint8
	// Type is the statementType.
	Type string
}

// edge is one supports edge (component → item) or progression edge (item →
// item), by node index. relatesTo edges are stored with From < To (they are
// undirected).
type edge struct {
	From, To int32
	// Conf is a supports edge's supportConfidence, when HasConf.
	Conf    float64
	Type    uint8
	HasConf bool
}

// Snapshot is the compact form of one framework snapshot that Compare reads:
// nodes in export order, progression edges, and the way back to statement
// texts (texts), which is used only for the nodes a comparison reports.
type Snapshot struct {
	// Source is the path the snapshot was read from, as given; Format is
	// "package" or "image".
	Source, Format          string
	FrameworkID, SnapshotID string
	RootID                  string
	Nodes                   []node
	// Edges holds the supports and progression edges, sorted.
	Edges []edge
	// grades holds the distinct grade lists, each joined with gradeSep;
	// index 0 is the empty list.
	grades   []string
	gradeIdx map[string]uint32
	// more holds the second and later parents of multi-parent items.
	more map[int32][]int32
	// types interns the statement types (a few distinct values).
	types map[string]string
	// meta is the snapshot's rights, profile and metadata fields.
	meta []field
	// children holds each parent's children in curriculum order (the
	// framework root under rootParent) and basis what that order rests on
	// (publisher, code, statement_numbers, identifier; file for an image
	// written before the basis was recorded).
	children map[int32][]int32
	basis    map[int32]string
	// pub holds the publisher-asserted relations, sorted.
	pub   []pubRel
	texts textSource
}

// pubRel is one publisher-asserted relation: its CASE association type and
// ends, each a node index, rootParent (the framework node) or external (then
// its reference as CASE gives it).
type pubRel struct {
	Type           string
	From, To       int32
	FromExt, ToExt externalRef
	Seq            int64
	HasSeq         bool
}

// externalRef is an end outside the package as the publisher names it.
type externalRef struct {
	URI        string `json:"uri,omitempty"`
	Identifier string `json:"identifier,omitempty"`
	Title      string `json:"title,omitempty"`
}

// textSource returns the statements of the nodes at the given indexes (each
// checked against the node's hash by the caller).
type textSource interface {
	statements(s *Snapshot, idx []int32) (map[int32]string, error)
	close() error
}

const gradeSep = "\x1f"

// newSnapshot returns an empty snapshot ready for adding nodes.
func newSnapshot(source, format string) *Snapshot {
	return &Snapshot{Source: source, Format: format, grades: []string{""}, gradeIdx: map[string]uint32{"": 0}, more: map[int32][]int32{},
		children: map[int32][]int32{}, basis: map[int32]string{}, types: map[string]string{}}
}

// Close releases what the snapshot holds open (an image mapping).
func (s *Snapshot) Close() error {
	if s.texts == nil {
		return nil
	}
	err := s.texts.close()
	s.texts = nil
	return err
}

// internGrades returns the index of a grade list (copying it on first sight).
func (s *Snapshot) internGrades(list []string) uint32 {
	key := strings.Join(list, gradeSep)
	if i, ok := s.gradeIdx[key]; ok {
		return i
	}
	key = strings.Clone(key)
	i := uint32(len(s.grades))
	s.grades = append(s.grades, key)
	s.gradeIdx[key] = i
	return i
}

// internType returns the snapshot's copy of a statement type.
func (s *Snapshot) internType(t string) string {
	if c, ok := s.types[t]; ok {
		return c
	}
	c := strings.Clone(t)
	s.types[c] = c
	return c
}

// gradeList returns the grades of node i.
func (s *Snapshot) gradeList(i int32) []string {
	g := s.grades[s.Nodes[i].Grades]
	if g == "" {
		return []string{}
	}
	return strings.Split(g, gradeSep)
}

// parents returns the parent indexes of node i (rootParent for the framework
// node), in the order the hierarchy lists them.
func (s *Snapshot) parents(i int32) []int32 {
	p := s.Nodes[i].Parent
	if p == noParent {
		return nil
	}
	return append([]int32{p}, s.more[i]...)
}

// addParent records a hasChild edge into node child.
func (s *Snapshot) addParent(child, parent int32) {
	n := &s.Nodes[child]
	switch {
	case n.Parent == noParent:
		n.Parent = parent
	case n.Parent == parent || slices.Contains(s.more[child], parent):
	default:
		s.more[child] = append(s.more[child], parent)
	}
}

// statementHash hashes a statement and whether it is present.
func statementHash(text string, present bool) [16]byte {
	h := sha256.New()
	if present {
		h.Write([]byte{1})
	} else {
		h.Write([]byte{0})
	}
	h.Write([]byte(text))
	var out [16]byte
	copy(out[:], h.Sum(nil))
	return out
}

// edgeCount returns how many edges of a type the snapshot holds.
func (s *Snapshot) edgeCount(t uint8) int {
	n := 0
	for _, e := range s.Edges {
		if e.Type == t {
			n++
		}
	}
	return n
}

// count returns how many nodes of a kind the snapshot holds.
func (s *Snapshot) count(kind uint8) int {
	n := 0
	for i := range s.Nodes {
		if s.Nodes[i].Kind == kind {
			n++
		}
	}
	return n
}

// normalizeEdges orders relatesTo endpoints and sorts and deduplicates the
// edges.
func (s *Snapshot) normalizeEdges() {
	for i := range s.Edges {
		e := &s.Edges[i]
		if e.Type == edgeRelatesTo && e.From > e.To {
			e.From, e.To = e.To, e.From
		}
	}
	slices.SortStableFunc(s.Edges, cmpEdge)
	s.Edges = slices.CompactFunc(s.Edges, func(a, b edge) bool { return cmpEdge(a, b) == 0 })
	slices.SortStableFunc(s.pub, cmpPub)
	s.pub = slices.CompactFunc(s.pub, func(a, b pubRel) bool { return cmpPub(a, b) == 0 })
}

// cmpPub orders publisher relations by type, ends and sequence.
func cmpPub(a, b pubRel) int {
	return cmp.Or(cmp.Compare(a.Type, b.Type), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To),
		cmpExt(a.FromExt, b.FromExt), cmpExt(a.ToExt, b.ToExt), cmpSeq(a, b))
}

// cmpSeq orders a relation without a sequence number before every one with.
func cmpSeq(a, b pubRel) int {
	switch {
	case a.HasSeq != b.HasSeq && a.HasSeq:
		return 1
	case a.HasSeq != b.HasSeq:
		return -1
	}
	return cmp.Compare(a.Seq, b.Seq)
}

func cmpExt(a, b externalRef) int {
	return cmp.Or(strings.Compare(a.URI, b.URI), strings.Compare(a.Identifier, b.Identifier), strings.Compare(a.Title, b.Title))
}

func cmpEdge(a, b edge) int {
	if c := cmp.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	if c := cmp.Compare(a.From, b.From); c != 0 {
		return c
	}
	return cmp.Compare(a.To, b.To)
}
