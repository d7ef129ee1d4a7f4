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

// TestSourceNoteSaysEachFactOnce: an attribution that names the licence
// already (kgc import case writes "… (CASE id; not stated in the CASE
// package).") is not followed by the licence again.
func TestSourceNoteSaysEachFactOnce(t *testing.T) {
	for _, c := range []struct{ attribution, license, want string }{
		{"Sample (CASE 255a; not stated in the CASE package).", "not stated in the CASE package", "Source: Sample (CASE 255a; not stated in the CASE package)."},
		{"Sample curriculum.", "CC0-1.0", "Source: Sample curriculum. (CC0-1.0)"},
		{"Sample, CC BY 4.0.", "cc by 4.0", "Source: Sample, CC BY 4.0."},
		{"Sample.", "", "Source: Sample."},
		{"  ", "CC0-1.0", ""},
	} {
		if got := sourceNote(c.attribution, c.license); got != c.want {
			t.Errorf("sourceNote(%q, %q) = %q, want %q", c.attribution, c.license, got, c.want)
		}
	}
}
