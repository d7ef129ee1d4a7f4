package kgimg_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
	. "github.com/kgc-project/kgc/kgimg"
)

func publisherSpec() pkggen.Spec {
	spec, other := tinySpec(), tinySpec()
	other.FrameworkID = "kgc-tiny-other"
	spec.Publisher, spec.AlignTo = true, &other
	return spec
}

// publisherImage is the tiny package with publisher relations: precedes
// between sibling indicators and exactMatchOf to another framework.
func publisherImage(t testing.TB) []byte {
	f := pkgtest.Write(t, publisherSpec())
	data, res := imgtest.Build(t, f.Dir, f.Profiles, "")
	if len(res.PublisherRelations) == 0 {
		t.Fatal("the package has no publisher relations")
	}
	return data
}

// TestPublisherRelationsRoundTrip: every relation the gate accepted reads back
// from the image: type, identifier, ends (a node, or the reference outside
// the package), sequence, the by-node rows and the external indexes.
func TestPublisherRelationsRoundTrip(t *testing.T) {
	f := pkgtest.Write(t, publisherSpec())
	data, res := imgtest.Build(t, f.Dir, f.Profiles, "")
	img, err := OpenBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	if err := img.VerifyDeep(); err != nil {
		t.Fatal(err)
	}
	rels := res.PublisherRelations
	if img.PublisherRelationCount() != len(rels) {
		t.Fatalf("%d relations, want %d", img.PublisherRelationCount(), len(rels))
	}
	for i, r := range rels {
		if img.PublisherKindOf(i).String() != r.Type || img.PublisherID(i) != r.ID {
			t.Fatalf("relation %d: %s %s, want %s %s", i, img.PublisherKindOf(i), img.PublisherID(i), r.Type, r.ID)
		}
		seq, has := img.PublisherSequence(i)
		if has != (r.Sequence != nil) || (has && seq != *r.Sequence) {
			t.Errorf("relation %d: sequence %d %v", i, seq, has)
		}
		for s, e := range []struct {
			node, uri, id string
		}{{r.Origin.NodeID, r.Origin.URI, r.Origin.Identifier}, {r.Destination.NodeID, r.Destination.URI, r.Destination.Identifier}} {
			n := img.PublisherEnd(i, Side(s))
			if e.node == "" {
				uri, id, _ := img.PublisherExternal(i, Side(s))
				if n != NoNode || uri != e.uri || id != e.id {
					t.Errorf("relation %d side %d: %d %q %q", i, s, n, uri, id)
				}
				found := false
				for _, x := range img.PublisherExternalsByIdentifier(e.id) {
					found = found || (x.Relation == i && x.Side == Side(s))
				}
				for _, x := range img.PublisherExternalsByURI(e.uri) {
					found = found && x.Relation == i && x.Side == Side(s)
				}
				if !found {
					t.Errorf("relation %d side %d: not in the external indexes", i, s)
				}
				continue
			}
			if n == NoNode || img.NodeString(n, NodeID) != e.node {
				t.Fatalf("relation %d side %d: node %d, want %s", i, s, n, e.node)
			}
			in := false
			rows := img.PublisherRelationsOf(n, Side(s))
			for k := 0; k < rows.Len(); k++ {
				in = in || int(rows.At(k)) == i
			}
			if !in {
				t.Errorf("relation %d is not in node %s's rows", i, e.node)
			}
		}
	}
}

// TestCraftedPublisherRelationsAreRefused: an end past the nodes, a kind past
// the enumeration, an external index entry naming a node end, a node's row
// listing a relation that does not end at it are refused at open; an
// external index out of order by VerifyDeep.
func TestCraftedPublisherRelationsAreRefused(t *testing.T) {
	data := publisherImage(t)
	img, err := OpenBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	at := img.Places()
	img.Close()
	for name, mutate := range map[string]func(b []byte){
		"an end past the nodes":        func(b []byte) { binary.LittleEndian.PutUint32(b[at["pub.origin0"]:], 0x7FFFFFFF) },
		"a kind past the enumeration":  func(b []byte) { b[at["pub.kind0"]] = 200 },
		"an index entry on a node end": func(b []byte) { binary.LittleEndian.PutUint32(b[at["pub.byuri0"]:], 0) },
		"a row listing another node's relation": func(b []byte) {
			rel := binary.LittleEndian.Uint32(b[at["pub.outrows0"]:])
			binary.LittleEndian.PutUint32(b[at["pub.outrows0"]:], rel+1)
		},
	} {
		t.Run(name, func(t *testing.T) {
			b := append([]byte(nil), data...)
			mutate(b)
			mustRefuse(t, Reseal(b), name)
		})
	}
}

// TestPublisherTextIsChecked: a publisher relation's text (here an outside
// end's title) that is not valid UTF-8 passes Open, like every string
// column, and is refused by the text check (CheckText, VerifyDeep), which
// kgmcp runs on every package it serves.
func TestPublisherTextIsChecked(t *testing.T) {
	data := publisherImage(t)
	img, err := OpenBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	at := img.Places()
	img.Close()
	if at["pub.title"] == 0 {
		t.Fatal("the publisher fixture has no outside end with a title")
	}
	b := append([]byte(nil), data...)
	b[at["pub.title"]] = 0xff
	img, err = OpenBytes(Reseal(b))
	if err != nil {
		t.Fatalf("Open refused what only the text check checks: %v", err)
	}
	defer img.Close()
	if err := img.CheckText(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("CheckText: %v, want ErrCorrupt", err)
	}
	if err := img.VerifyDeep(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("VerifyDeep: %v, want ErrCorrupt", err)
	}
}
