package standard

import (
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/record"
)

// PublisherNotice is what every answer that shows publisher relations says
// of them.
const PublisherNotice = "Publisher-asserted: the framework's publisher states these relations in its CASE data. " +
	"They are neither generated learning-progression links nor search candidates."

// PublisherRelation is one publisher-asserted relation of a standard, seen
// from it.
type PublisherRelation struct {
	// AssertedBy is always "publisher".
	AssertedBy      string `json:"assertedBy" enum:"publisher"`
	AssociationType string `json:"associationType"`
	// Direction is outgoing when the standard is the relation's CASE origin
	// (it "precedes" or is "exactMatchOf" the other end), incoming when it is
	// the destination.
	Direction  string `json:"direction" enum:"outgoing,incoming"`
	RelationID string `json:"relationId"`
	// AssertedIn is the snapshot whose publisher asserts it: this standard's,
	// or another framework's whose relation names this standard.
	AssertedIn     string    `json:"assertedIn"`
	SequenceNumber *int64    `json:"sequenceNumber"`
	Other          EndResult `json:"other"`
}

// EndResult is the other end of a publisher relation: a served standard, or
// a reference outside the package as the publisher gave it, with the served
// standards it resolves to (by CASE identifier or URI; the current snapshot
// first).
type EndResult struct {
	Standard *EndStandard  `json:"standard"`
	External *ExternalRef  `json:"external"`
	Matches  []EndStandard `json:"matches"`
}

// EndStandard is a served standard at the end of a publisher relation.
type EndStandard struct {
	FrameworkID   string  `json:"frameworkId"`
	SnapshotID    string  `json:"snapshotId"`
	IsCurrent     bool    `json:"isCurrent"`
	NodeID        string  `json:"nodeId"`
	StatementCode *string `json:"statementCode"`
	Description   *string `json:"description"`
	StandardURI   string  `json:"standardUri"`
}

// ExternalRef is an end outside the package, as CASE gave it, and the code
// its URI or title spells (nil when neither spells one).
type ExternalRef struct {
	URI        *string `json:"uri"`
	Identifier *string `json:"identifier"`
	Title      *string `json:"title"`
	Code       *string `json:"code"`
}

// maxMatches bounds the served standards one outside reference resolves to.
const maxMatches = 8

// End describes node n of p.
func End(p *catalog.Package, n uint32) EndStandard {
	img := p.Img
	id := img.NodeString(n, kgimg.NodeID)
	e := EndStandard{FrameworkID: p.FrameworkID(), SnapshotID: p.SnapshotID(), IsCurrent: p.Manifest.Framework.IsCurrent,
		NodeID: id, StandardURI: URI(p, id)}
	if c := img.NodeString(n, kgimg.NodeStatementCode); c != "" {
		e.StatementCode = ptr(c)
	}
	if d := img.NodeString(n, kgimg.NodeDescription); d != "" {
		e.Description = ptr(d)
	} else if nm := img.NodeString(n, kgimg.NodeName); nm != "" {
		e.Description = ptr(nm)
	}
	return e
}

// spelledCode is the code an outside reference spells: the last segment of
// its URI (after ':', '/' or '|', percent-decoded), else its title, when that
// looks like a code and not a UUID.
func spelledCode(uri, title string) string {
	if u, err := url.PathUnescape(uri); err == nil {
		uri = u
	}
	last := uri
	if i := strings.LastIndexAny(uri, ":/|"); i >= 0 {
		last = uri[i+1:]
	}
	for _, c := range []string{last, strings.TrimSpace(title)} {
		if codeRe.MatchString(c) && !uuidRe.MatchString(c) && strings.ContainsAny(c, "0123456789") {
			return c
		}
	}
	return ""
}

// externalRef is the reference of relation i's side s.
func externalRef(img *kgimg.Image, i int, s kgimg.Side) *ExternalRef {
	uri, id, title := img.PublisherExternal(i, s)
	r := &ExternalRef{}
	for _, f := range []struct {
		v string
		p **string
	}{{uri, &r.URI}, {id, &r.Identifier}, {title, &r.Title}} {
		if f.v != "" {
			*f.p = ptr(f.v)
		}
	}
	if c := spelledCode(uri, title); c != "" {
		r.Code = &c
	}
	return r
}

// resolveExternal finds the served standards an outside reference names:
// items of other packages whose CASE UUID is its identifier or whose CASE URI
// is its uri; current snapshots first, then by snapshot ID.
func resolveExternal(served []*catalog.Package, from *catalog.Package, uri, identifier string) []EndStandard {
	var out []EndStandard
	seen := map[[2]string]bool{}
	for _, p := range served {
		if p == from {
			continue
		}
		img := p.Img
		var hits []uint32
		if identifier != "" {
			hits = img.NodesByCaseUUID(identifier).AppendTo(hits)
		}
		if uri != "" {
			hits = img.NodesByCaseURI(uri).AppendTo(hits)
		}
		for _, n := range hits {
			if img.NodeKind(n) != kgimg.ItemNode {
				continue
			}
			e := End(p, n)
			if k := [2]string{e.SnapshotID, e.NodeID}; !seen[k] {
				seen[k] = true
				out = append(out, e)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].IsCurrent != out[j].IsCurrent {
			return out[i].IsCurrent
		}
		return out[i].SnapshotID < out[j].SnapshotID
	})
	if len(out) > maxMatches {
		out = out[:maxMatches]
	}
	return out
}

// Peers are the other packages a standard's publisher relations can reach:
// Asserting, the served packages that declare publisher relations (only they
// can assert one about another package's standard), and Holding, the served
// packages where an outside reference may resolve (asked only for a
// relation with an outside end). In a catalog of many images a standard so
// verifies only the images that assert relations and those that may hold
// its relations' outside ends (catalog.Catalog.ServedPublishers, Holding).
type Peers struct {
	Asserting []*catalog.Package
	Holding   func(uri, identifier string) []*catalog.Package
}

// PeersOf are the peers of c's standards.
func PeersOf(c *catalog.Catalog) Peers {
	return Peers{Asserting: c.ServedPublishers(), Holding: c.Holding}
}

// RelationsOf lists the publisher relations of standard n of p: those its own
// package asserts (both directions), then those other served packages assert
// about it through an outside reference (its CASE UUID or URI), in file order.
// keep filters by type.
func RelationsOf(peers Peers, p *catalog.Package, n uint32, keep func(kgimg.PublisherKind) bool) []PublisherRelation {
	var out []PublisherRelation
	add := func(q *catalog.Package, i int, self kgimg.Side) {
		img := q.Img
		k := img.PublisherKindOf(i)
		if !keep(k) {
			return
		}
		r := PublisherRelation{AssertedBy: "publisher", AssociationType: k.String(), Direction: "outgoing",
			RelationID: img.PublisherID(i), AssertedIn: q.SnapshotID()}
		if self == kgimg.Destination {
			r.Direction = "incoming"
		}
		if seq, ok := img.PublisherSequence(i); ok {
			r.SequenceNumber = &seq
		}
		other := 1 - self
		if m := img.PublisherEnd(i, other); m != kgimg.NoNode {
			e := End(q, m)
			r.Other.Standard = &e
		} else {
			r.Other.External = externalRef(img, i, other)
			uri, id, _ := img.PublisherExternal(i, other)
			r.Other.Matches = resolveExternal(peers.Holding(uri, id), q, uri, id)
		}
		if r.Other.Matches == nil {
			r.Other.Matches = []EndStandard{}
		}
		out = append(out, r)
	}
	img := p.Img
	for _, side := range []kgimg.Side{kgimg.Origin, kgimg.Destination} {
		rows := img.PublisherRelationsOf(n, side)
		for k := 0; k < rows.Len(); k++ {
			add(p, int(rows.At(k)), side)
		}
	}
	uuid, uri := img.NodeString(n, kgimg.NodeCaseIdentifierUUID), img.NodeString(n, kgimg.NodeCaseIdentifierURI)
	for _, q := range peers.Asserting {
		if q == p || q.Img.PublisherRelationCount() == 0 {
			continue
		}
		seen := map[kgimg.ExternalEnd]bool{}
		var ends []kgimg.ExternalEnd
		if uuid != "" {
			ends = append(ends, q.Img.PublisherExternalsByIdentifier(uuid)...)
		}
		if uri != "" {
			ends = append(ends, q.Img.PublisherExternalsByURI(uri)...)
		}
		sort.Slice(ends, func(a, b int) bool { return ends[a].Relation < ends[b].Relation })
		for _, e := range ends {
			if !seen[e] {
				seen[e] = true
				add(q, e.Relation, e.Side)
			}
		}
	}
	return out
}

// StandardRelations is what get_standard and get_standard_context show of a
// standard's publisher relations: the first ones, how many there are, and
// where to read them all.
type StandardRelations struct {
	Notice     string              `json:"notice"`
	Relations  []PublisherRelation `json:"relations"`
	TotalCount int                 `json:"totalCount"`
}

// relationsShown bounds the publisher relations get_standard and
// get_standard_context list (get_publisher_relations lists up to 200).
const relationsShown = 10

// Relations is the summary of standard n's publisher relations, or
// nil when it has none.
func Relations(peers Peers, p *catalog.Package, n uint32) *StandardRelations {
	all := RelationsOf(peers, p, n, func(kgimg.PublisherKind) bool { return true })
	if len(all) == 0 {
		return nil
	}
	return &StandardRelations{Notice: PublisherNotice, Relations: all[:min(len(all), relationsShown)], TotalCount: len(all)}
}

// PublisherRelationsResult is get_publisher_relations' result.
type PublisherRelationsResult struct {
	Notice    string              `json:"notice"`
	Package   record.PackageRef   `json:"package"`
	Standard  EndStandard         `json:"standard"`
	Relations []PublisherRelation `json:"relations"`
	// TotalCount is how many relations match; Relations holds the first
	// Limit of them.
	TotalCount int  `json:"totalCount"`
	Complete   bool `json:"complete"`
	// Sequence is the publisher's precedes chain walked sequenceDepth steps
	// each way (nil when sequenceDepth is 0).
	Sequence *PublisherSequence `json:"sequence"`
}

// PublisherSequence is the publisher's sequence around a standard: what
// comes before it (nearest first) and after it, step by step along precedes
// relations between served standards.
type PublisherSequence struct {
	Before   []SequenceStep `json:"before"`
	After    []SequenceStep `json:"after"`
	MaxDepth int            `json:"maxDepth"`
	// Complete says the walk reached the ends of the chain within MaxDepth
	// and maxSequenceNodes.
	Complete bool `json:"complete"`
}

// SequenceStep is a standard reached along precedes, depth steps away.
type SequenceStep struct {
	Depth    int         `json:"depth"`
	Standard EndStandard `json:"standard"`
}

// maxSequenceNodes bounds a precedes walk in each direction.
const maxSequenceNodes = 200

// Sequence walks the precedes relations of the standard's package from n,
// breadth first, depth steps each way (at most maxSequenceNodes each).
func Sequence(p *catalog.Package, n uint32, depth int) *PublisherSequence {
	img := p.Img
	walk := func(self kgimg.Side) ([]SequenceStep, bool) {
		other := 1 - self
		seen := map[uint32]bool{n: true}
		frontier := []uint32{n}
		var steps []SequenceStep
		complete := true
		for d := 1; d <= depth && len(frontier) > 0; d++ {
			var next []uint32
			for _, x := range frontier {
				rows := img.PublisherRelationsOf(x, self)
				for k := 0; k < rows.Len(); k++ {
					i := int(rows.At(k))
					m := img.PublisherEnd(i, other)
					if img.PublisherKindOf(i) != kgimg.Precedes || m == kgimg.NoNode || seen[m] {
						continue
					}
					if len(steps) == maxSequenceNodes {
						return steps, false
					}
					seen[m] = true
					steps = append(steps, SequenceStep{Depth: d, Standard: End(p, m)})
					next = append(next, m)
				}
			}
			frontier = next
			if d == depth && len(next) > 0 {
				for _, x := range next { // more beyond the depth?
					rows := img.PublisherRelationsOf(x, self)
					for k := 0; k < rows.Len(); k++ {
						if i := int(rows.At(k)); img.PublisherKindOf(i) == kgimg.Precedes && img.PublisherEnd(i, other) != kgimg.NoNode {
							complete = false
						}
					}
				}
			}
		}
		if steps == nil {
			steps = []SequenceStep{}
		}
		return steps, complete
	}
	// n precedes what comes after it (n is the origin); what precedes n
	// comes before it (n is the destination).
	after, ca := walk(kgimg.Origin)
	before, cb := walk(kgimg.Destination)
	return &PublisherSequence{Before: before, After: after, MaxDepth: depth, Complete: ca && cb}
}

// codeRe is what a code spelled by a URI's last segment or a title looks like.
var (
	codeRe = regexp.MustCompile(`^[A-Za-z0-9]+(?:[.\-][A-Za-z0-9]+)+$`)
	uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)
