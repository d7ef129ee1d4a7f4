package query

import (
	"github.com/kgc-project/kgc/runtime/record"

	"encoding/hex"
	"testing"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// refEffectiveQuerySha256 and refIndexSetSha256 are the cursor digests as
// they were first written: the whole document built and hashed on every call.
// The precomputed forms must give the same digests (cursors handed out
// before keep working, and the golden transcripts hold them).
func refEffectiveQuerySha256(request obj, normalized map[string]string, pkgs []*catalog.Package) string {
	ids := make([]PackageIdentity, 0, len(pkgs))
	for _, p := range pkgs {
		ids = append(ids, record.Identity(p))
	}
	nq := obj{}
	for k, v := range normalized {
		nq[k] = v
	}
	sum, _ := canonjson.Sha256(obj{"normalizedQueries": nq, "query": request, "resolvedPackages": ids})
	return sum
}

func refIndexSetSha256(pkgs []*catalog.Package) string {
	var parts []obj
	for _, p := range pkgs {
		var sum [8]byte
		h := p.Img.Header().Checksum
		for i := range sum {
			sum[i] = byte(h >> (8 * i))
		}
		parts = append(parts, obj{"graphPackageId": p.GraphPackageID(), "image": hex.EncodeToString(sum[:])})
	}
	v, _ := canonjson.Sha256(obj{"packages": parts, "lexical": textnorm.LexicalVersion, "facet": textnorm.FacetVersion,
		"ranking": "deterministic_search_ranking_v2", "cursor": 1})
	return v
}

// TestCursorDigests holds the precomputed cursor digests and the streamed
// catalog digest to the documents hashed whole, over selections of the
// sample catalog (none, one package, all, reversed, repeated) and
// normalized queries that repeat, differ, escape and are absent.
func TestCursorDigests(t *testing.T) {
	t.Parallel()
	cat := imgtest.Catalog(t, imgtest.Images(t, nil, nil))
	s := New(cat, Options{})
	all := cat.Packages
	rev := make([]*catalog.Package, len(all))
	for i, p := range all {
		rev[len(all)-1-i] = p
	}
	selections := [][]*catalog.Package{nil, {}, all[:1], all, rev, append(append([]*catalog.Package{}, all...), all...)}
	requests := []obj{{}, {"mode": "text", "query": "read \"words\"\n\u00e9", "limit": 25, "match": obj{"operator": "any"}, "frameworkIds": []any{"a", "b"}}}
	for _, sel := range selections {
		normals := []map[string]string{nil, {}}
		same, mixed := map[string]string{}, map[string]string{}
		for i, p := range sel {
			same[p.GraphPackageID()] = "read words"
			mixed[p.GraphPackageID()] = []string{"a\"b", "\u00e9t\u00e9", "a\"b", "", "x\\y\u2028"}[i%5]
		}
		stray := map[string]string{"zz-not-served": "x", "a-not-served": "y"}
		for k, v := range same {
			stray[k] = v
		}
		normals = append(normals, same, mixed, stray)
		for _, req := range requests {
			for _, nq := range normals {
				if got, want := s.effectiveQuerySha256(req, nq, sel), refEffectiveQuerySha256(req, nq, sel); got != want {
					t.Fatalf("effectiveQuerySha256 (%d packages, %v, %v): %s, want %s", len(sel), req, nq, got, want)
				}
			}
		}
		if got, want := s.indexSetSha256(sel), refIndexSetSha256(sel); got != want {
			t.Fatalf("indexSetSha256 (%d packages): %s, want %s", len(sel), got, want)
		}
	}
	want, _ := canonjson.Sha256(s.catalogObject())
	if got := s.catalogSha256(); got != want {
		t.Fatalf("catalogSha256 %s, want %s", got, want)
	}
	if got, want := record.CatalogDigest(Catalog{}), func() string { v, _ := canonjson.Sha256(Catalog{}); return v }(); got != want {
		t.Fatalf("catalogDigest of an empty catalog %s, want %s", got, want)
	}
}

// BenchmarkCursorDigests compares the two cursor digests of a federated
// search over 1,000 clone images, computed whole as before and from the
// per-catalog encodings.
func BenchmarkCursorDigests(b *testing.B) {
	cat := imgtest.Catalog(b, cloneDir(b, b.TempDir(), 1000))
	s := New(cat, Options{})
	req := obj{"mode": "text", "query": "read words", "limit": 25, "match": obj{"matchMode": "tokens", "operator": "any"}}
	nq := map[string]string{}
	for _, p := range cat.Packages {
		nq[p.GraphPackageID()] = "read words"
	}
	s.packageDigests()
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			refEffectiveQuerySha256(req, nq, cat.Packages)
			refIndexSetSha256(cat.Packages)
		}
	})
	b.Run("precomputed", func(b *testing.B) {
		for b.Loop() {
			s.effectiveQuerySha256(req, nq, cat.Packages)
			s.indexSetSha256(cat.Packages)
		}
	})
}
