package uri

import (
	"errors"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/runtime/kgerr"
)

// TestEveryTemplateRoundTrips fills every template with identifiers that
// need escaping (/, %, @, +, spaces, dots, non-ASCII) and requires Parse to
// give back exactly the identifiers and String the same address.
func TestEveryTemplateRoundTrips(t *testing.T) {
	ids := []string{"plain", "a/b", "50%", "fw@2026+abc", "with space", "..", ".", "é-ü", `back\slash`}
	for _, tm := range Templates {
		for _, id := range ids {
			addr := tm.URI
			addr = strings.Replace(addr, "{framework_id}", escape("fw-"+id), 1)
			addr = strings.Replace(addr, "{snapshot_id}", escape("snap-"+id), 1)
			for _, p := range []string{"{node_id}", "{relationship_id}", "{artifact_name}"} {
				addr = strings.Replace(addr, p, escape(id), 1)
			}
			r, err := Parse(addr)
			if err != nil {
				t.Fatalf("%s with %q: %v", tm.Name, id, err)
			}
			if r.Kind != tm.Name || r.FrameworkID != "fw-"+id || (strings.Contains(tm.URI, "{snapshot_id}") && r.SnapshotID != "snap-"+id) {
				t.Errorf("%s with %q parsed as %+v", tm.Name, id, r)
			}
			if strings.Count(tm.URI, "{") == 3 && r.ID != id {
				t.Errorf("%s with %q: id %q", tm.Name, id, r.ID)
			}
			if got := r.String(); got != addr {
				t.Errorf("%s with %q: String %s, want %s", tm.Name, id, got, addr)
			}
			if c, ok := Canonical(addr); !ok || c != addr {
				t.Errorf("%s with %q: not canonical", tm.Name, id)
			}
		}
	}
	if len(Templates) != 15 || len(TemplateURIs()) != 15 {
		t.Fatalf("%d templates", len(Templates))
	}
	if r, err := Parse(Catalog); err != nil || r.String() != Catalog {
		t.Errorf("the catalog address: %+v %v", r, err)
	}
}

// TestInexactAddressesAreRefused: each way an address can be inexact is an
// invalid_evidence_uri error naming it; a raw spelling that parses has one
// canonical form.
func TestInexactAddressesAreRefused(t *testing.T) {
	for addr, why := range map[string]string{
		"http://framework/x":                         "scheme",
		"kgfegmcp://framework/x?y=1":                 "query strings",
		"kgfegmcp://framework/x#f":                   "fragments",
		"kgfegmcp://framework//snapshot/s":           "empty path segment",
		"kgfegmcp://framework/../snapshot/s":         "dot segment",
		"kgfegmcp://framework/{framework_id}":        "placeholder",
		"kgfegmcp://framework/%zz":                   "percent-encoding",
		"kgfegmcp://standards/x":                     "resource family",
		"kgfegmcp://framework/x/version/s":           "/snapshot/",
		"kgfegmcp://framework/x/snapshot/s/standard": "resource path",
	} {
		_, err := Parse(addr)
		var ke *kgerr.Error
		if !errors.As(err, &ke) || ke.Code != kgerr.InvalidEvidenceURI || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: %v, want invalid_evidence_uri about %s", addr, err, why)
		}
		if _, ok := Canonical(addr); ok {
			t.Errorf("%s has a canonical form", addr)
		}
	}
	if c, ok := Canonical("kgfegmcp://framework/f/snapshot/f@2026+x/standard/n"); !ok || c != "kgfegmcp://framework/f/snapshot/f%402026%2Bx/standard/n" {
		t.Errorf("raw spelling: %q %v", c, ok)
	}
}
