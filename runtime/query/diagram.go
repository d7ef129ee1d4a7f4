package query

import (
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/diagram"
	"github.com/kgc-project/kgc/runtime/render"
	"github.com/kgc-project/kgc/runtime/uri"
)

// diagramDoc is the standard_diagram resource: the Mermaid form of
// StandardDiagram, under the standard resources' rights gate (checked by the
// caller), so its text is always allowed.
func diagramDoc(ref uri.Ref, p *catalog.Package) (*document, error) {
	pic, err := diagram.Standard(p, ref.ID)
	if err != nil {
		return nil, err
	}
	d := &document{ref: ref, kind: "standard_diagram", representation: "deterministic_derived", mime: render.MermaidMIME,
		data: render.MermaidBytes(pic), pkg: p}
	for _, name := range []string{"nodes", "relationships"} {
		if s, ok := sourceArtifact(p, name); ok {
			d.sources = append(d.sources, s)
		}
	}
	return d, nil
}
