package diagram

import (
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/runtime/render"
)

// TestDiagramsDrawEachStandardOnce: in the diagram of every standard of the
// shipped samples, a standard reached two ways (a sibling that is also a
// relatesTo partner, a child that the standard also builds towards) is one
// box with an edge for each relation, and every edge joins drawn boxes.
func TestDiagramsDrawEachStandardOnce(t *testing.T) {
	t.Parallel()
	diagrams, shared := 0, 0
	for _, p := range imgtest.Catalog(t, imgtest.Images(t, nil, nil)).Packages {
		img := p.Img
		for n := range uint32(img.NodeCount()) {
			if img.NodeKind(n) != kgimg.ItemNode {
				continue
			}
			id := img.NodeString(n, kgimg.NodeID)
			d, err := Standard(p, id)
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			diagrams++
			boxes, drawn := map[string]string{}, map[string]bool{}
			for _, col := range d.Columns {
				for _, sec := range col.Sections {
					for _, node := range sec.Nodes {
						drawn[node.ID] = true
						if node.Kind == render.More {
							continue
						}
						std := node.ID
						if node.ID == "focus" {
							std = id
						} else if _, after, ok := strings.Cut(node.ID, ":"); ok {
							std = after
						}
						if other, ok := boxes[std]; ok {
							t.Errorf("diagram of %s: %s is drawn twice (%s and %s)", id, std, other, node.ID)
						}
						boxes[std] = node.ID
					}
				}
			}
			edges := map[render.Edge]bool{}
			for _, e := range d.Edges {
				if !drawn[e.From] || !drawn[e.To] {
					t.Errorf("diagram of %s: edge %+v joins a box that is not drawn", id, e)
				}
				if edges[e] {
					t.Errorf("diagram of %s: edge %+v drawn twice", id, e)
				}
				edges[e] = true
				if e.Kind != render.HasChild && (strings.HasPrefix(e.From, "sib:") || strings.HasPrefix(e.To, "sib:") || strings.HasPrefix(e.To, "child:") || strings.HasPrefix(e.From, "child:")) {
					shared++
				}
			}
		}
	}
	t.Logf("%d diagrams; %d progression edges drawn to a sibling or child box", diagrams, shared)
	if diagrams < 50 {
		t.Fatalf("only %d diagrams", diagrams)
	}
}
