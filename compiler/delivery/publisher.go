package delivery

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/kgimg/format"
	"github.com/kgc-project/kgc/schema/ids"
)

// PublisherRelationType returns the enum value of a relation type name
// (format.PublisherRelationTypes: the CASE association types other than
// isChildOf, asserted by the publisher, which kgc never mixes with the
// generated learning-progression edges).
func PublisherRelationType(name string) (uint8, bool) {
	for i, t := range format.PublisherRelationTypes {
		if t == name {
			return uint8(i), true
		}
	}
	return 0, false
}

// RelationEnd is one end of a publisher relation: a node of the package
// (NodeID), or a reference outside it as CASE gives it (URI, Identifier,
// Title; at least the URI or the identifier).
type RelationEnd struct {
	NodeID                 string
	URI, Identifier, Title string
}

// External reports whether the end lies outside the package.
func (e RelationEnd) External() bool { return e.NodeID == "" }

// PublisherRelation is one record of publisher_relations.jsonl
// (docs/reference/package-format.md#publisher-relations).
type PublisherRelation struct {
	ID                  string
	Type                string
	Origin, Destination RelationEnd
	// Sequence is the association's sequenceNumber (nil when not given).
	Sequence *int64
	Line     int
}

// PublisherKey is what makes a publisher relation one: its type and its
// two ends. A package carries each at most once.
type PublisherKey struct {
	Type                string
	Origin, Destination RelationEnd
}

// Key is the relation's PublisherKey.
func (r *PublisherRelation) Key() PublisherKey {
	return PublisherKey{r.Type, r.Origin, r.Destination}
}

// publisherLine is a line of publisher_relations.jsonl as written: the
// members DecodePublisherRelation reads.
type publisherLine struct {
	Identifier      string  `json:"identifier"`
	AssociationType string  `json:"associationType"`
	Origin          endLine `json:"origin"`
	Destination     endLine `json:"destination"`
	SequenceNumber  *int64  `json:"sequenceNumber,omitempty"`
}

// endLine is a RelationEnd with the line's member names.
type endLine struct {
	NodeID     string `json:"nodeId,omitempty"`
	URI        string `json:"uri,omitempty"`
	Identifier string `json:"identifier,omitempty"`
	Title      string `json:"title,omitempty"`
}

// EncodePublisherRelation is r as one line of publisher_relations.jsonl
// (without its line feed), the form DecodePublisherRelation reads back.
func EncodePublisherRelation(r *PublisherRelation) ([]byte, error) {
	return json.Marshal(publisherLine{r.ID, r.Type, endLine(r.Origin), endLine(r.Destination), r.Sequence})
}

// DecodePublisherRelation decodes one line's object strictly: exactly the
// members identifier, associationType, origin, destination and optionally
// sequenceNumber. It returns the record, or the problems (each a sentence).
func DecodePublisherRelation(v *jsonv.Value, line int) (*PublisherRelation, []string) {
	var bad []string
	r := &PublisherRelation{Line: line}
	seen := map[string]bool{}
	for _, m := range v.Obj {
		seen[m.Key] = true
		switch m.Key {
		case "identifier", "associationType":
			if m.Val.Kind != jsonv.String {
				bad = append(bad, m.Key+" must be a string")
				continue
			}
			if m.Key == "identifier" {
				r.ID = m.Val.Str
			} else {
				r.Type = m.Val.Str
			}
		case "origin", "destination":
			e, why := relationEnd(m.Val)
			if why != "" {
				bad = append(bad, m.Key+" "+why)
			}
			if m.Key == "origin" {
				r.Origin = e
			} else {
				r.Destination = e
			}
		case "sequenceNumber":
			n, err := strconv.ParseInt(m.Val.Str, 10, 64)
			if m.Val.Kind != jsonv.Number || err != nil {
				bad = append(bad, "sequenceNumber must be an integer")
				continue
			}
			r.Sequence = &n
		default:
			bad = append(bad, fmt.Sprintf("unknown member %q", m.Key))
		}
	}
	for _, k := range []string{"identifier", "associationType", "origin", "destination"} {
		if !seen[k] {
			bad = append(bad, k+" is required")
		}
	}
	if seen["identifier"] {
		if why := ids.CheckOpaque(r.ID, ids.MaxNodeID); why != "" {
			bad = append(bad, fmt.Sprintf("identifier %q: %s", r.ID, why))
		}
	}
	if _, ok := PublisherRelationType(r.Type); seen["associationType"] && !ok {
		bad = append(bad, fmt.Sprintf("associationType %q is not one of %v (isChildOf is the hasChild hierarchy)", r.Type, format.PublisherRelationTypes))
	}
	if len(bad) == 0 && r.Origin.External() && r.Destination.External() {
		bad = append(bad, "neither end is a node of the package")
	}
	return r, bad
}

// relationEnd decodes {"nodeId": …} or {"uri"?, "identifier"?, "title"?}.
func relationEnd(v *jsonv.Value) (RelationEnd, string) {
	var e RelationEnd
	if v.Kind != jsonv.Object {
		return e, "must be an object: {\"nodeId\"} or {\"uri\", \"identifier\", \"title\"}"
	}
	for _, m := range v.Obj {
		if m.Val.Kind != jsonv.String {
			return e, m.Key + " must be a string"
		}
		switch m.Key {
		case "nodeId":
			e.NodeID = m.Val.Str
		case "uri":
			e.URI = m.Val.Str
		case "identifier":
			e.Identifier = m.Val.Str
		case "title":
			e.Title = m.Val.Str
		default:
			return e, fmt.Sprintf("has an unknown member %q", m.Key)
		}
	}
	switch {
	case e.NodeID != "" && (e.URI != "" || e.Identifier != "" || e.Title != ""):
		return e, "is either a node of the package (nodeId) or a reference outside it (uri, identifier, title), not both"
	case e.NodeID == "" && e.URI == "" && e.Identifier == "":
		return e, "needs a nodeId, or for an end outside the package a uri or an identifier"
	}
	for _, s := range []struct {
		v   string
		max int
	}{{e.NodeID, ids.MaxNodeID}, {e.Identifier, ids.MaxNodeID}, {e.URI, ids.MaxCaseURI}, {e.Title, ids.MaxCaseURI}} {
		if s.v == "" {
			continue
		}
		if why := ids.CheckOpaque(s.v, s.max); why != "" {
			return e, fmt.Sprintf("%q: %s", s.v, why)
		}
	}
	return e, ""
}
