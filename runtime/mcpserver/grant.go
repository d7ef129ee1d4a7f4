package mcpserver

import (
	"context"
	"path"
	"slices"
	"strings"
)

// Grant is what a caller may read: the frameworks its key or token is
// granted, each an ID or a pattern (path.Match syntax: "ghana-*"). A nil
// Grant, or one with no frameworks, grants every framework.
type Grant struct {
	Frameworks []string
	// Caller names who holds the grant in logs and metrics (an API key's
	// id: never the key).
	Caller string
}

// Allows reports whether the grant covers framework id.
func (g *Grant) Allows(id string) bool {
	if g == nil || len(g.Frameworks) == 0 {
		return true
	}
	for _, f := range g.Frameworks {
		if ok, _ := path.Match(f, id); ok || f == id {
			return true
		}
	}
	return false
}

// key names the grant (its frameworks, sorted).
func (g *Grant) key() string {
	fs := slices.Clone(g.Frameworks)
	slices.Sort(fs)
	return strings.Join(fs, "\x00")
}

type grantKey struct{}

// WithGrant returns ctx carrying the caller's grant: every request handled
// under it answers as if only the granted frameworks were served.
func WithGrant(ctx context.Context, g *Grant) context.Context {
	return context.WithValue(ctx, grantKey{}, g)
}

// grantOf returns the grant ctx carries (nil: everything).
func grantOf(ctx context.Context) *Grant {
	g, _ := ctx.Value(grantKey{}).(*Grant)
	return g
}

// CallerOf returns the caller the grant ctx carries names ("" when none).
func CallerOf(ctx context.Context) string {
	if g := grantOf(ctx); g != nil {
		return g.Caller
	}
	return ""
}
