package query

import (
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/progression"

	"context"
	"sort"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// --- get_learning_progression ----------------------------------------------

// ProgressionRequest asks for one stored progression edge
// (get_learning_progression).
type ProgressionRequest struct {
	ProgressionRoute
	RelationshipID string `json:"relationshipId"`
}

// Progression answers get_learning_progression: one buildsTowards or
// relatesTo edge with both endpoints and its judgment.
func (s *Service) Progression(ctx context.Context, r ProgressionRequest) (*ProgressionEdgeResult, error) {
	if err := checkRequest(getProgressionSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.progression(ctx, r)
	return own(s, result, err)
}

func getProgressionSchema() *Schema {
	props := lpRouteProps()
	props["relationshipId"] = opaque(1024, "the stored progression relationship's ID")
	return jsonschema.Object(props, "frameworkId", "relationshipId")
}

// pinned returns the route with the resolved snapshot, for echoes and replays.
func pinned(r ProgressionRoute, p *catalog.Package) obj {
	return obj{"frameworkId": r.FrameworkID, "snapshotId": p.SnapshotID()}
}

func (s *Service) progression(_ context.Context, r ProgressionRequest) (*ProgressionEdgeResult, error) {
	p, err := s.lpPackage(r.ProgressionRoute)
	if err != nil {
		return nil, err
	}
	img := p.Img
	rel, ok := img.RelationshipByID(r.RelationshipID)
	if !ok || !isProgression(img.RelLabel(rel)) {
		return nil, kgerr.New(kgerr.LearningProgressionNotFound, "%s has no learning-progression relationship %s", p.SnapshotID(), r.RelationshipID).
			WithHint("get_standard_progressions and search_learning_progressions list the stored edges")
	}
	e := progression.NewEvidence(p, nil)
	e.EdgeOrder = true
	e.AddEdge(rel)
	req := pinned(r.ProgressionRoute, p)
	req["relationshipId"] = r.RelationshipID
	out := s.lpEvidence(p, req, e, noContinuation)
	if ok, err := fitsCeiling(out); err != nil {
		return nil, err
	} else if !ok {
		return nil, tooLarge("the progression edge " + r.RelationshipID)
	}
	return &out, nil
}

func isProgression(l kgimg.RelLabel) bool {
	return l == kgimg.BuildsTowards || l == kgimg.RelatesTo
}

// --- get_standard_progressions ---------------------------------------------

// StandardProgressionsRequest asks for the progression edges touching one
// standard (get_standard_progressions). NewStandardProgressionsRequest fills
// the defaults.
type StandardProgressionsRequest struct {
	ProgressionRoute
	Identifier     Selector `json:"identifier"`
	ConnectionKind string   `json:"connectionKind"`
	Limit          int      `json:"limit"`
	Cursor         *string  `json:"cursor,omitempty"`
}

// NewStandardProgressionsRequest asks for every edge touching the standard
// id selects, in the framework's unique current snapshot.
func NewStandardProgressionsRequest(frameworkID string, id Selector) StandardProgressionsRequest {
	return newRequest[StandardProgressionsRequest](standardProgressionsSchema(), map[string]any{"frameworkId": frameworkID, "identifier": id})
}

// StandardProgressions answers get_standard_progressions: one page of the
// edges touching the standard, ordered by (type, relationship ID).
func (s *Service) StandardProgressions(ctx context.Context, r StandardProgressionsRequest) (*ProgressionCollection, error) {
	if err := checkRequest(standardProgressionsSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.standardProgressions(ctx, r)
	return own(s, result, err)
}

func pageLimit() *Schema { return jsonschema.Integer(1, 100, 25, "edges per page") }

func standardProgressionsSchema() *Schema {
	props := lpRouteProps()
	props["identifier"] = lpSelectorSchema()
	kind := jsonschema.Enum("incoming_builds: buildsTowards edges into the standard; outgoing_builds: out of it; related: relatesTo at either end; all: the three",
		"all", "incoming_builds", "outgoing_builds", "related")
	kind.Default = "all"
	props["connectionKind"] = kind
	props["limit"] = pageLimit()
	props["cursor"] = cursorSchema()
	return jsonschema.Object(props, "frameworkId", "identifier")
}

// connectionKindOf names an edge relative to a standard.
func connectionKindOf(img *kgimg.Image, r, std uint32) string {
	switch {
	case img.RelLabel(r) == kgimg.RelatesTo:
		return "related"
	case img.RelTarget(r) == std:
		return "incoming_builds"
	}
	return "outgoing_builds"
}

// standardStream lists the progression edges touching std, by (type, ID).
func standardStream(img *kgimg.Image, std uint32, kind string) []lpCandidate {
	var builds, relates []uint32
	if kind == "all" || kind == "incoming_builds" {
		_, rels := img.Adjacency(kgimg.BuildsTowards, kgimg.In).Row(std)
		builds = rels.AppendTo(builds)
	}
	if kind == "all" || kind == "outgoing_builds" {
		_, rels := img.Adjacency(kgimg.BuildsTowards, kgimg.Out).Row(std)
		builds = rels.AppendTo(builds)
	}
	if kind == "all" || kind == "related" {
		for _, d := range []kgimg.Direction{kgimg.In, kgimg.Out} {
			_, rels := img.Adjacency(kgimg.RelatesTo, d).Row(std)
			relates = rels.AppendTo(relates)
		}
	}
	out := make([]lpCandidate, 0, len(builds)+len(relates))
	for _, list := range [][]uint32{sortedUniqueByID(img, builds), sortedUniqueByID(img, relates)} {
		for _, r := range list {
			out = append(out, lpCandidate{rel: r, kind: connectionKindOf(img, r, std)})
		}
	}
	return out
}

func sortedUniqueByID(img *kgimg.Image, rels []uint32) []uint32 {
	sort.Slice(rels, func(i, j int) bool { return img.RelString(rels[i], kgimg.RelID) < img.RelString(rels[j], kgimg.RelID) })
	out := rels[:0]
	for i, r := range rels {
		if i == 0 || r != rels[i-1] {
			out = append(out, r)
		}
	}
	return out
}

func (s *Service) standardProgressions(_ context.Context, r StandardProgressionsRequest) (*ProgressionCollection, error) {
	p, err := s.lpPackage(r.ProgressionRoute)
	if err != nil {
		return nil, err
	}
	std, err := resolveEndpoint(p, r.Identifier)
	if err != nil {
		return nil, err
	}
	kind := r.ConnectionKind
	img := p.Img
	req := pinned(r.ProgressionRoute, p)
	req["identifier"] = r.Identifier
	req["connectionKind"] = kind
	req["limit"] = r.Limit
	filter := &lpFilter{selected: map[uint32]bool{std: true}}
	stdID := img.NodeString(std, kgimg.NodeID)
	out, err := s.page(&lpCollection{
		tool: "get_standard_progressions", p: p, request: req, cursor: r.Cursor, limit: r.Limit,
		stream: standardStream(img, std, kind),
		match: func(c lpCandidate) (Connection, bool) {
			return connection(img, c, filter), true
		},
		scope: "either", filters: filter.echo(), resolved: []string{stdID},
	})
	if err == nil && len(out.Connections) == 0 && !out.Page.HasMore && r.Cursor == nil {
		out.NearbyNotice = progression.Nearby(img, std)
	}
	return out, err
}

// connection is a connections[] entry.
func connection(img *kgimg.Image, c lpCandidate, f *lpFilter) Connection {
	var kind *string
	if c.kind != "" {
		k := c.kind
		kind = &k
	}
	return Connection{RelationshipID: img.RelString(c.rel, kgimg.RelID), ConnectionKind: kind,
		SourceMatch: f.endpoint(img, img.RelSource(c.rel)), TargetMatch: f.endpoint(img, img.RelTarget(c.rel))}
}
