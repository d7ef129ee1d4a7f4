package query

import (
	"strconv"
	"testing"
)

// TestLinkCacheIsBounded: the remembered links never exceed maxCachedLinks,
// and what is remembered is given back as it was put.
func TestLinkCacheIsBounded(t *testing.T) {
	var c linkCache
	for i := 0; i < 3*maxCachedLinks+7; i++ {
		uri := "kgfegmcp://x/" + strconv.Itoa(i)
		c.put(uri, cachedLink{servable: i%2 == 0, mime: "application/json", size: int64(i)})
		if got, ok := c.get(uri); !ok || got.size != int64(i) || got.servable != (i%2 == 0) {
			t.Fatalf("entry %d read back as %+v %v", i, got, ok)
		}
		if len(c.m) > maxCachedLinks {
			t.Fatalf("%d entries remembered, bound %d", len(c.m), maxCachedLinks)
		}
	}
}
