// Package uri is the kgfegmcp:// resource address scheme: the fixed catalog
// address, the 15 resource templates, a parsed address (Ref) and its one
// canonical spelling, and parsing an address exactly (no query, fragment,
// dot or extra segment; each segment decoded once). kgmcp's resources,
// resource links and citations and the browser's deep links all go through
// it (docs/reference/resources.md).
package uri

import (
	"net/url"
	"strings"

	"github.com/kgc-project/kgc/runtime/kgerr"
)

// The scheme, and the one fixed resource: the catalog.
const (
	scheme  = "kgfegmcp://"
	Catalog = scheme + "catalog"
)

// Template is one resource template: its resource name, URI template, and
// the title and description a host shows for it.
type Template struct{ Name, URI, Title, Description string }

// Templates are the 15 resource templates (docs/reference/resources.md#templates), by resource name, in
// the contract's order. Callers must not modify them.
var Templates = []Template{
	{"framework", "kgfegmcp://framework/{framework_id}", "Framework",
		"One framework family: its snapshots, their packages, capabilities and rights."},
	{"package_manifest", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/manifest", "Package manifest",
		"The exact package_manifest.json of a snapshot's package."},
	{"validation_report", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/validation", "Validation report",
		"The package's standards/components validation report, when it declares one."},
	{"unresolved_items", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/unresolved", "Unresolved items",
		"The items whose parent could not be resolved, when the package declares the report."},
	{"interpretation_profile", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/interpretation-profile", "Interpretation profile",
		"The exact profile the package is bound to by SHA-256: statement types, grades, code policy, rights."},
	{"manifest_artifact", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/artifact/{artifact_name}", "Package artifact",
		"One declared artifact's exact bytes, by logical name, when the rights allow whole artifacts."},
	{"standard", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/standard/{node_id}", "Standard",
		"One standards item with its facets and package identity."},
	{"standard_provenance", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/standard/{node_id}/provenance", "Standard provenance",
		"The detailed source provenance of one standards item."},
	{"standard_learning_components", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/standard/{node_id}/learning-components", "Learning components of a standard",
		"The learning components that support one standards item."},
	{"standard_diagram", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/standard/{node_id}/diagram", "Diagram of a standard",
		"A Mermaid flowchart of one standards item's neighbourhood: hierarchy path, siblings, children, learning components, progression links (bounded)."},
	{"learning_component", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/learning-component/{node_id}", "Learning component",
		"One learning component with the standards it supports."},
	{"learning_component_provenance", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/learning-component/{node_id}/provenance", "Learning component provenance",
		"The generation provenance of one learning component."},
	{"relationship", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/relationship/{relationship_id}", "Relationship",
		"One relationship (hierarchy, supports or progression edge) with its endpoints."},
	{"relationship_provenance", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/relationship/{relationship_id}/provenance", "Progression evidence",
		"The per-edge evidence of one learning-progression relationship, read from its provenance shard."},
	{"learning_progressions", "kgfegmcp://framework/{framework_id}/snapshot/{snapshot_id}/learning-progressions", "Learning-progression summary",
		"The public summary of the package's learning progressions: counts, coverage, validation."},
}

// TemplateURIs lists the 15 resource templates' URI templates, in contract
// order.
func TemplateURIs() []string {
	out := make([]string, len(Templates))
	for i, t := range Templates {
		out[i] = t.URI
	}
	return out
}

// RecordPattern is the URI of a record family of one snapshot with the
// record's ID left as the literal placeholder {id} (resource kinds standard,
// standard_provenance, standard_learning_components, learning_component,
// learning_component_provenance, relationship, relationship_provenance):
// replace {id} with the record's ID, percent-encoded where it holds
// anything but letters, digits and -._~ (node IDs are UUIDs).
func RecordPattern(kind, frameworkID, snapshotID string) string {
	const marker = "IDMARKER"
	return strings.Replace(Ref{Kind: kind, FrameworkID: frameworkID, SnapshotID: snapshotID, ID: marker}.String(), marker, "{id}", 1)
}

// escape percent-encodes one identifier as a single path segment with an empty
// safe set (RFC 3986 unreserved characters only stay literal); an identifier
// that is a dot segment ("." or "..") has its dots encoded, so no client
// resolves it away.
func escape(s string) string {
	if s == "." || s == ".." {
		return strings.Repeat("%2E", len(s))
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		const hexu = "0123456789ABCDEF"
		b.WriteByte('%')
		b.WriteByte(hexu[c>>4])
		b.WriteByte(hexu[c&15])
	}
	return b.String()
}

// Ref is a parsed resource address.
type Ref struct {
	Kind        string // resource name
	FrameworkID string
	SnapshotID  string
	ID          string // artifact name, node ID or relationship ID
}

// String returns the canonical URI.
func (r Ref) String() string {
	if r.Kind == "catalog" {
		return Catalog
	}
	u := scheme + "framework/" + escape(r.FrameworkID)
	if r.Kind == "framework" {
		return u
	}
	u += "/snapshot/" + escape(r.SnapshotID)
	switch r.Kind {
	case "package_manifest":
		return u + "/manifest"
	case "validation_report":
		return u + "/validation"
	case "unresolved_items":
		return u + "/unresolved"
	case "interpretation_profile":
		return u + "/interpretation-profile"
	case "learning_progressions":
		return u + "/learning-progressions"
	case "manifest_artifact":
		return u + "/artifact/" + escape(r.ID)
	case "standard":
		return u + "/standard/" + escape(r.ID)
	case "standard_provenance":
		return u + "/standard/" + escape(r.ID) + "/provenance"
	case "standard_learning_components":
		return u + "/standard/" + escape(r.ID) + "/learning-components"
	case "standard_diagram":
		return u + "/standard/" + escape(r.ID) + "/diagram"
	case "learning_component":
		return u + "/learning-component/" + escape(r.ID)
	case "learning_component_provenance":
		return u + "/learning-component/" + escape(r.ID) + "/provenance"
	case "relationship":
		return u + "/relationship/" + escape(r.ID)
	case "relationship_provenance":
		return u + "/relationship/" + escape(r.ID) + "/provenance"
	}
	return u
}

func badURI(why string) error {
	return kgerr.New(kgerr.InvalidEvidenceURI, "not an exact kgfegmcp:// resource address: %s", why).
		WithHint("use kgfegmcp://catalog or a URI built from one of the resource templates")
}

// Parse parses an exact resource address: no query, fragment, port or
// userinfo; no empty, dot or extra segments. Each segment is split on the
// literal "/" and then decoded exactly once, so an identifier may hold any
// character, "/" and "%" included (encoded as %2F and %25): the gate accepts
// such identifiers, and every record it accepts has an address. A decoded
// segment is only ever compared with the image's keys, never used as a path.
func Parse(raw string) (Ref, error) {
	if raw == Catalog {
		return Ref{Kind: "catalog"}, nil
	}
	if !strings.HasPrefix(raw, scheme) {
		return Ref{}, badURI("the scheme must be kgfegmcp://")
	}
	rest := raw[len(scheme):]
	if strings.ContainsAny(rest, "?#") {
		return Ref{}, badURI("query strings and fragments are not allowed")
	}
	parts := strings.Split(rest, "/")
	seg := make([]string, len(parts))
	for i, p := range parts {
		if p == "" {
			return Ref{}, badURI("empty path segment")
		}
		if p == "." || p == ".." {
			return Ref{}, badURI("dot segment")
		}
		if strings.ContainsAny(p, "{}") {
			return Ref{}, badURI("unreplaced template placeholder")
		}
		d, err := url.PathUnescape(p)
		if err != nil {
			return Ref{}, badURI("bad percent-encoding")
		}
		seg[i] = d
	}
	if seg[0] != "framework" || len(seg) < 2 {
		return Ref{}, badURI("unknown resource family")
	}
	r := Ref{FrameworkID: seg[1]}
	if len(seg) == 2 {
		r.Kind = "framework"
		return r, nil
	}
	if len(seg) < 4 || seg[2] != "snapshot" {
		return Ref{}, badURI("expected /snapshot/{snapshot_id}")
	}
	r.SnapshotID = seg[3]
	tail := seg[4:]
	switch {
	case len(tail) == 1 && tail[0] == "manifest":
		r.Kind = "package_manifest"
	case len(tail) == 1 && tail[0] == "validation":
		r.Kind = "validation_report"
	case len(tail) == 1 && tail[0] == "unresolved":
		r.Kind = "unresolved_items"
	case len(tail) == 1 && tail[0] == "interpretation-profile":
		r.Kind = "interpretation_profile"
	case len(tail) == 1 && tail[0] == "learning-progressions":
		r.Kind = "learning_progressions"
	case len(tail) == 2 && tail[0] == "artifact":
		r.Kind, r.ID = "manifest_artifact", tail[1]
	case len(tail) == 2 && tail[0] == "standard":
		r.Kind, r.ID = "standard", tail[1]
	case len(tail) == 3 && tail[0] == "standard" && tail[2] == "provenance":
		r.Kind, r.ID = "standard_provenance", tail[1]
	case len(tail) == 3 && tail[0] == "standard" && tail[2] == "learning-components":
		r.Kind, r.ID = "standard_learning_components", tail[1]
	case len(tail) == 3 && tail[0] == "standard" && tail[2] == "diagram":
		r.Kind, r.ID = "standard_diagram", tail[1]
	case len(tail) == 2 && tail[0] == "learning-component":
		r.Kind, r.ID = "learning_component", tail[1]
	case len(tail) == 3 && tail[0] == "learning-component" && tail[2] == "provenance":
		r.Kind, r.ID = "learning_component_provenance", tail[1]
	case len(tail) == 2 && tail[0] == "relationship":
		r.Kind, r.ID = "relationship", tail[1]
	case len(tail) == 3 && tail[0] == "relationship" && tail[2] == "provenance":
		r.Kind, r.ID = "relationship_provenance", tail[1]
	default:
		return Ref{}, badURI("unknown resource path")
	}
	return r, nil
}

// Canonical returns the canonical spelling of a resource address that
// parses — every identifier percent-encoded exactly once, as the templates
// and resource links write it — so that the raw spelling a client may build
// (`@`, `+` left literal) reads the same resource. ok is false for a URI
// that is not an exact address.
func Canonical(raw string) (canonical string, ok bool) {
	r, err := Parse(raw)
	if err != nil {
		return "", false
	}
	return r.String(), true
}
