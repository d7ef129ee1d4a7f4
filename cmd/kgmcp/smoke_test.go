package main

import (
	"context"
	"io"
	"testing"

	"github.com/kgc-project/kgc/internal/smoke"
)

// kgc smoke's checks against the real binary: over stdio (with the clean
// exit once the input closes) and over HTTP.
func TestSmokeTheRealServer(t *testing.T) {
	t.Parallel()
	dir := shippedImages(t)
	s, err := smoke.Stdio(context.Background(), []string{binary, dir}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != "passed" || s.CleanExit == nil || !*s.CleanExit || s.ToolCallCount != 20 || s.ResourceReadCount != 16 {
		t.Errorf("stdio smoke: %+v", s)
	}
	h, err := smoke.HTTP(context.Background(), startHTTP(t, dir).base+"/mcp", "")
	if err != nil {
		t.Fatal(err)
	}
	if h.Status != "passed" || h.ToolCallCount != 20 || h.ResourceReadCount != 16 {
		t.Errorf("HTTP smoke: %+v", h)
	}
}
