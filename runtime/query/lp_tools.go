package query

import (
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/progression"

	"context"

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
	filter := progression.Selecting(std)
	stdID := img.NodeString(std, kgimg.NodeID)
	out, err := s.page(&lpCollection{
		tool: "get_standard_progressions", p: p, request: req, cursor: r.Cursor, limit: r.Limit,
		stream: progression.StandardStream(img, std, kind),
		match: func(c progression.Candidate) (Connection, bool) {
			return progression.ConnectionOf(img, c, filter), true
		},
		scope: "either", filters: filter.Echo(), resolved: []string{stdID},
	})
	if err == nil && len(out.Connections) == 0 && !out.Page.HasMore && r.Cursor == nil {
		out.NearbyNotice = progression.Nearby(img, std)
	}
	return out, err
}
