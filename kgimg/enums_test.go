package kgimg

import (
	"strings"
	"testing"

	"github.com/kgc-project/kgc/kgimg/kgfb"
)

// TestPublisherTypesFollowTheSchema: the names the writer stores an index of
// and the reader names (format.PublisherRelationTypes) are the schema's enum,
// in its order, so no type is ever read back as another.
func TestPublisherTypesFollowTheSchema(t *testing.T) {
	if len(PublisherKindNames) != len(kgfb.EnumNamesPublisherRelationKind) {
		t.Fatalf("%d names, the schema has %d", len(PublisherKindNames), len(kgfb.EnumNamesPublisherRelationKind))
	}
	for i, name := range PublisherKindNames {
		if schema := kgfb.EnumNamesPublisherRelationKind[kgfb.PublisherRelationKind(i)]; !strings.EqualFold(schema, name) {
			t.Errorf("type %d is %q here, %q in kgimg.fbs", i, name, schema)
		}
	}
}
