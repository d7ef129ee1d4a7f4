package query

import (
	"github.com/kgc-project/kgc/runtime/record"

	"crypto/sha256"
	"encoding/hex"
	"slices"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/textnorm"
	"github.com/kgc-project/kgc/runtime/catalog"
)

// packageDigest holds the canonical encodings of what a search cursor binds
// about one package, encoded once per catalog (the catalog is immutable):
// its identity (effectiveQuerySha256's resolvedPackages) and its index
// entry (indexSetSha256's packages). A call then hashes these bytes and
// encodes only what depends on the request.
type packageDigest struct {
	identity []byte // canonical PackageIdentity
	index    []byte // canonical {"graphPackageId":…,"image":…}
}

// packageDigests returns every package's encodings, built on first use.
func (s *Service) packageDigests() map[*catalog.Package]*packageDigest {
	return s.memo.get("packageDigests", func() any {
		out := make(map[*catalog.Package]*packageDigest, len(s.cat.Packages))
		for _, p := range s.cat.Packages {
			out[p] = newPackageDigest(p)
		}
		return out
	}).(map[*catalog.Package]*packageDigest)
}

func newPackageDigest(p *catalog.Package) *packageDigest {
	var sum [8]byte
	h := p.Img.Header().Checksum
	for i := range sum {
		sum[i] = byte(h >> (8 * i))
	}
	d := &packageDigest{}
	d.identity, _ = canonjson.Append(nil, record.Identity(p))
	d.index, _ = canonjson.Append(nil, obj{"graphPackageId": p.GraphPackageID(), "image": hex.EncodeToString(sum[:])})
	return d
}

// digest returns p's encodings: from the catalog's table, or encoded now for
// a package the table does not hold (never the case for a package of the
// served catalog).
func (s *Service) digest(table map[*catalog.Package]*packageDigest, p *catalog.Package) *packageDigest {
	if d, ok := table[p]; ok {
		return d
	}
	return newPackageDigest(p)
}

// packageKeyTable is every graph package ID of the catalog in canonical
// (byte) order, each with its encoding as an object key ("id":), and the
// rank of each: normalized queries are keyed by graph package ID, and a
// call puts its keys in order by sorting their ranks.
type packageKeyTable struct {
	ids     []string
	encoded [][]byte
	rank    map[string]int32
}

func (s *Service) packageKeys() *packageKeyTable {
	return s.memo.get("packageKeys", func() any {
		t := &packageKeyTable{rank: make(map[string]int32, len(s.cat.Packages))}
		for _, p := range s.cat.Packages {
			t.ids = append(t.ids, p.GraphPackageID())
		}
		slices.Sort(t.ids)
		t.ids = slices.Compact(t.ids)
		for i, id := range t.ids {
			enc, _ := canonjson.Append(nil, id)
			t.encoded = append(t.encoded, append(enc, ':'))
			t.rank[id] = int32(i)
		}
		return t
	}).(*packageKeyTable)
}

// keyRanks returns the ranks of normalized's keys in canonical order, or
// false when one is not a package of the catalog.
func (s *Service) keyRanks(normalized map[string]string) ([]int32, bool) {
	t := s.packageKeys()
	ranks := make([]int32, 0, len(normalized))
	for k := range normalized {
		r, ok := t.rank[k]
		if !ok {
			return nil, false
		}
		ranks = append(ranks, r)
	}
	slices.Sort(ranks)
	return ranks, true
}

// digestWriter hashes canonical JSON written piece by piece through a
// bounded buffer.
type digestWriter struct {
	h interface {
		Write([]byte) (int, error)
		Sum([]byte) []byte
	}
	b []byte
}

func newDigestWriter() *digestWriter {
	return &digestWriter{h: sha256.New(), b: make([]byte, 0, 8<<10)}
}

func (w *digestWriter) raw(s string) { w.b = append(w.b, s...); w.flush() }

func (w *digestWriter) bytes(b []byte) { w.b = append(w.b, b...); w.flush() }

func (w *digestWriter) value(v any) {
	w.b, _ = canonjson.Append(w.b, v)
	w.flush()
}

func (w *digestWriter) flush() {
	if len(w.b) >= 4<<10 {
		w.h.Write(w.b)
		w.b = w.b[:0]
	}
}

func (w *digestWriter) sum() string {
	w.h.Write(w.b)
	return "sha256:" + hex.EncodeToString(w.h.Sum(nil))
}

// effectiveQuerySha256 hashes the validated request (cursor excluded), the
// per-package normalized queries and the resolved packages: canonjson.Sha256
// of {"normalizedQueries":…,"query":…,"resolvedPackages":[identity…]}, with
// the keys in canonical order and each package's identity encoded once per
// catalog (TestCursorDigests holds it to the document hashed whole).
func (s *Service) effectiveQuerySha256(request obj, normalized map[string]string, pkgs []*catalog.Package) string {
	w := newDigestWriter()
	w.raw(`{"normalizedQueries":{`)
	var prev string
	var prevEnc []byte
	first := true
	entry := func(key []byte, v string) {
		if !first {
			w.raw(",")
		}
		first = false
		w.bytes(key)
		// The values repeat (a text query normalises the same way in every
		// package): encode each distinct run once.
		if prevEnc == nil || v != prev {
			prev, prevEnc = v, nil
			prevEnc, _ = canonjson.Append(prevEnc, v)
		}
		w.bytes(prevEnc)
	}
	if ranks, ok := s.keyRanks(normalized); ok {
		keys := s.packageKeys()
		for _, r := range ranks {
			entry(keys.encoded[r], normalized[keys.ids[r]])
		}
	} else {
		ks := make([]string, 0, len(normalized))
		for k := range normalized {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		for _, k := range ks {
			enc, _ := canonjson.Append(nil, k)
			entry(append(enc, ':'), normalized[k])
		}
	}
	w.raw(`},"query":`)
	w.value(request)
	w.raw(`,"resolvedPackages":[`)
	table := s.packageDigests()
	for i, p := range pkgs {
		if i > 0 {
			w.raw(",")
		}
		w.bytes(s.digest(table, p).identity)
	}
	w.raw("]}")
	return w.sum()
}

// indexSetSha256 binds a cursor to the selected images and normalisers:
// canonjson.Sha256 of {"cursor":1,"facet":…,"lexical":…,"packages":[…],
// "ranking":…}, each package's entry encoded once per catalog.
func (s *Service) indexSetSha256(pkgs []*catalog.Package) string {
	w := newDigestWriter()
	w.raw(`{"cursor":1,"facet":`)
	w.value(textnorm.FacetVersion)
	w.raw(`,"lexical":`)
	w.value(textnorm.LexicalVersion)
	w.raw(`,"packages":`)
	if len(pkgs) == 0 {
		w.raw("null")
	} else {
		table := s.packageDigests()
		w.raw("[")
		for i, p := range pkgs {
			if i > 0 {
				w.raw(",")
			}
			w.bytes(s.digest(table, p).index)
		}
		w.raw("]")
	}
	w.raw(`,"ranking":`)
	w.value("deterministic_search_ranking_v2")
	w.raw("}")
	return w.sum()
}
