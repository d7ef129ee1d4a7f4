package query

import (
	"sort"
	"sync"

	"github.com/kgc-project/kgc/runtime/uri"
)

// Link is a resource a tool result can be cited by: the optional
// resource_link blocks that follow the result (docs/reference/tools.md#calling-a-tool), so that an
// assistant can open the evidence behind a record without building URIs.
type Link struct {
	URI      string
	Name     string // the resource template's name (standard, package_manifest, …)
	Title    string
	MIMEType string
	Size     int64 // the resource's bytes, as resources/read would return them
}

// maxLinks bounds the links of one result.
const maxLinks = 8

// Links returns the resource links of a tool result, sorted by URI: each a
// resource that resources/read would serve right now, under the package's
// rights and the size policy (a link that cannot be built is left out; it
// never fails the tool).
//
//   - get_framework: the framework, and — when the snapshot has exactly one
//     package — its manifest, interpretation profile and validation report;
//   - get_standard, get_standard_context, get_learning_components_for_standard:
//     the standard, its detailed provenance when the package has it and the
//     node has a CASE UUID, the manifest when the snapshot has one package,
//     and for the last one the standard's learning components;
//   - get_learning_component(_context): the component and its provenance.
//
// Other results have none: the progression tools' results carry their URIs
// in their JSON and have exactly one content block.
func (s *Service) Links(result any) []Link {
	var refs []uri.Ref
	switch r := result.(type) {
	case *FrameworkResult:
		f := r.Framework
		refs = append(refs, uri.Ref{Kind: "framework", FrameworkID: f.FrameworkID})
		if len(f.GraphPackages) == 1 {
			for _, k := range []string{"package_manifest", "interpretation_profile", "validation_report"} {
				refs = append(refs, uri.Ref{Kind: k, FrameworkID: f.FrameworkID, SnapshotID: f.SnapshotID})
			}
		}
	case *StandardResult:
		refs = s.standardRefs(r.Package.PackageIdentity, r.Node)
	case *ContextResult:
		refs = s.standardRefs(r.Standard.Package.PackageIdentity, r.Standard.Node)
	case *StandardComponentsResult:
		id := r.Package.PackageIdentity
		refs = append(s.standardRefs(id, r.Standard),
			uri.Ref{Kind: "standard_learning_components", FrameworkID: id.FrameworkID, SnapshotID: id.SnapshotID, ID: r.Standard.NodeID})
	case *ComponentResult:
		refs = s.componentRefs(r)
	case *ComponentContextResult:
		refs = s.componentRefs(&r.ComponentResult)
	}
	out := make([]Link, 0, len(refs))
	for _, ref := range refs {
		if l, ok := s.link(ref); ok {
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	if len(out) > maxLinks {
		out = out[:maxLinks]
	}
	return out
}

// standardRefs are the links of a standard result.
func (s *Service) standardRefs(id PackageIdentity, n StandardNode) []uri.Ref {
	at := func(kind string) uri.Ref {
		return uri.Ref{Kind: kind, FrameworkID: id.FrameworkID, SnapshotID: id.SnapshotID, ID: n.NodeID}
	}
	refs := []uri.Ref{at("standard")}
	if n.CaseIdentifierUUID != nil {
		refs = append(refs, at("standard_provenance"))
	}
	if s.singlePackage(id.SnapshotID) {
		refs = append(refs, uri.Ref{Kind: "package_manifest", FrameworkID: id.FrameworkID, SnapshotID: id.SnapshotID})
	}
	return refs
}

// componentRefs are the links of a learning-component result.
func (s *Service) componentRefs(r *ComponentResult) []uri.Ref {
	id := r.Package.PackageIdentity
	var refs []uri.Ref
	for _, k := range []string{"learning_component", "learning_component_provenance"} {
		refs = append(refs, uri.Ref{Kind: k, FrameworkID: id.FrameworkID, SnapshotID: id.SnapshotID, ID: r.Node.NodeID})
	}
	return refs
}

// singlePackage reports whether a snapshot has exactly one package, so that
// its package-level resources are unambiguous.
func (s *Service) singlePackage(snapshotID string) bool {
	snap, ok := s.cat.Snapshot(snapshotID)
	return ok && len(snap.Packages) == 1
}

// link builds the link to ref when the resource can be read now. Whether it
// can, its type and its size depend only on the immutable catalog, so they
// are remembered (s.links): a record's size is otherwise learnt by building
// and encoding its whole document on every call that links it.
func (s *Service) link(ref uri.Ref) (Link, bool) {
	uri := ref.String()
	c, ok := s.links.get(uri)
	if !ok {
		d, err := s.resolve(ref)
		c.servable = err == nil && int64(len(d.Data)) <= s.opts.MaxResourceBytes
		if c.servable {
			c.mime, c.size = d.MIME, int64(len(d.Data))
		}
		s.links.put(uri, c)
	}
	if !c.servable {
		return Link{}, false
	}
	return Link{URI: uri, Name: ref.Kind, Title: linkTitle(ref), MIMEType: c.mime, Size: c.size}, true
}

// maxCachedLinks bounds linkCache: past it the cache starts over, so a client
// walking a million-standard image holds at most this many entries.
const maxCachedLinks = 4096

// linkCache remembers what link found for a resource URI.
type linkCache struct {
	mu sync.Mutex
	m  map[string]cachedLink
}

type cachedLink struct {
	servable bool
	mime     string
	size     int64
}

func (c *linkCache) get(uri string) (cachedLink, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.m[uri]
	return l, ok
}

func (c *linkCache) put(uri string, l cachedLink) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedLinks {
		c.m = make(map[string]cachedLink)
	}
	c.m[uri] = l
}

// linkTitles are the titles of links, by resource kind: package-level ones
// name the snapshot, record-level ones the record.
var linkTitles = map[string]string{
	"package_manifest": "Package manifest of ", "interpretation_profile": "Interpretation profile of ",
	"validation_report": "Validation report of ", "standard": "Standard ", "standard_provenance": "Provenance of standard ",
	"standard_learning_components": "Learning components of standard ", "learning_component": "Learning component ",
	"learning_component_provenance": "Provenance of learning component ", "relationship": "Relationship ",
	"relationship_provenance": "Provenance of relationship ",
}

// linkTitle is a short human title for a link.
func linkTitle(ref uri.Ref) string {
	switch {
	case ref.Kind == "framework":
		return "Framework " + ref.FrameworkID
	case ref.ID == "":
		return linkTitles[ref.Kind] + ref.SnapshotID
	}
	return linkTitles[ref.Kind] + ref.ID
}
