package delivery

import (
	"reflect"
	"testing"

	"github.com/kgc-project/kgc/internal/jsonv"
)

// TestPublisherRelationsRoundTrip: what the CASE importer writes
// (EncodePublisherRelation) is what the gate reads back
// (DecodePublisherRelation), with every kind of end, with and without a
// sequence number — one record type, so the writer cannot drift from the
// reader.
func TestPublisherRelationsRoundTrip(t *testing.T) {
	seq := int64(1) << 60
	for _, r := range []*PublisherRelation{
		{ID: "a1", Type: "precedes", Origin: RelationEnd{NodeID: "n1"}, Destination: RelationEnd{NodeID: "n2"}, Sequence: &seq},
		{ID: "a2", Type: "exactMatchOf", Origin: RelationEnd{NodeID: "n1"},
			Destination: RelationEnd{URI: "https://example.org/x", Identifier: "6b1a3c4e-0000-4000-8000-000000000001", Title: "3.OA.A.1"}},
		{ID: "a3", Type: "isRelatedTo", Origin: RelationEnd{Identifier: "ext"}, Destination: RelationEnd{NodeID: "n2"}},
	} {
		b, err := EncodePublisherRelation(r)
		if err != nil {
			t.Fatal(err)
		}
		v, errs := jsonv.Parse(b)
		if v == nil || len(errs) > 0 {
			t.Fatalf("%s: %v", b, errs)
		}
		got, problems := DecodePublisherRelation(v, 7)
		if len(problems) > 0 {
			t.Fatalf("%s: %v", b, problems)
		}
		want := *r
		want.Line = 7
		if !reflect.DeepEqual(*got, want) || got.Key() != r.Key() {
			t.Errorf("%s read back as %+v, want %+v", b, *got, want)
		}
	}
}
