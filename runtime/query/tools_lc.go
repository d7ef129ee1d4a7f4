package query

import (
	"context"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/standard"
)

// ComponentRequest asks for one learning component
// (get_learning_component, get_learning_component_context).
// NewComponentRequest fills the defaults.
type ComponentRequest struct {
	FrameworkID   *string `json:"frameworkId"`
	SnapshotID    *string `json:"snapshotId"`
	GraphType     string  `json:"graphType,omitempty"`
	NodeID        string  `json:"nodeId"`
	AncestorDepth int     `json:"ancestorDepth"`
}

// NewComponentRequest asks for the component nodeID in the framework's
// unique current snapshot.
func NewComponentRequest(frameworkID, nodeID string) ComponentRequest {
	return newRequest[ComponentRequest](componentRequestSchema(), map[string]any{"frameworkId": frameworkID, "nodeId": nodeID})
}

func componentRequestSchema() *Schema {
	props := routeProps()
	props["nodeId"] = opaque(1024, "the learning component's node ID")
	props["ancestorDepth"] = jsonschema.Integer(0, 64, standard.PlacementDepth, "how many levels of each supported standard's hierarchy path to walk")
	return jsonschema.Object(props, "nodeId")
}

// Component answers get_learning_component: the component with labelled
// placements of the standards it supports.
func (s *Service) Component(ctx context.Context, r ComponentRequest) (*ComponentResult, error) {
	if err := checkRequest(componentRequestSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.component(ctx, r)
	return own(s, result, err)
}

// ComponentContext answers get_learning_component_context.
func (s *Service) ComponentContext(ctx context.Context, r ComponentRequest) (*ComponentContextResult, error) {
	if err := checkRequest(componentRequestSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.componentContext(ctx, r)
	return own(s, result, err)
}

func (s *Service) component(ctx context.Context, r ComponentRequest) (*ComponentResult, error) {
	c, err := s.fitComponent(r, false)
	if err != nil {
		return nil, err
	}
	return &c.ComponentResult, nil
}

func (s *Service) componentContext(ctx context.Context, r ComponentRequest) (*ComponentContextResult, error) {
	return s.fitComponent(r, true)
}

// fitComponent resolves the component and cuts its lists to the result
// ceiling (measured with the supported records only when they are returned).
func (s *Service) fitComponent(r ComponentRequest, withContext bool) (*ComponentContextResult, error) {
	p, err := s.route(r.FrameworkID, r.SnapshotID, r.GraphType)
	if err != nil {
		return nil, err
	}
	n, ok := p.Img.NodeByID(r.NodeID)
	if !ok || p.Img.NodeKind(n) != kgimg.ComponentNode {
		return nil, kgerr.New(kgerr.LearningComponentNotFound, "no learning component with node ID %s in %s", r.NodeID, p.SnapshotID()).
			WithHint("search_learning_components finds components; standards are read with get_standard")
	}
	full := standard.ComponentContext(p, n, r.AncestorDepth)
	measure := func(c *ComponentContextResult) any {
		if withContext {
			return c
		}
		return &c.ComponentResult
	}
	k, err := fitPrefix(measure(full), len(full.Placements), func(k int) any { return measure(full.Cut(k)) })
	if err != nil {
		return nil, err
	}
	if k < 0 {
		return nil, ResultTooLarge("learning component " + r.NodeID)
	}
	return full.Cut(k), nil
}
