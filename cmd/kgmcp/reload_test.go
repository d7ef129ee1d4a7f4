package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/pkggen"
)

// SIGHUP reloads the image set: a new image in the directory is served after
// it; a corrupt one leaves the old set serving (logged); the session goes on.
func TestReloadOnSIGHUP(t *testing.T) {
	t.Parallel()
	src := shippedImages(t)
	dir := t.TempDir()
	english, _ := filepath.Glob(filepath.Join(src, pkggen.Shipped()[0].FrameworkID+"@*.kgimg"))
	maths, _ := filepath.Glob(filepath.Join(src, pkggen.Shipped()[1].FrameworkID+"@*.kgimg"))
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		tmp := to + ".tmp"
		os.WriteFile(tmp, b, 0o644)
		os.Rename(tmp, to) // never write a served file in place
	}
	copyFile(english[0], filepath.Join(dir, filepath.Base(english[0])))

	cmd := exec.Command(binary, "--watch-interval", "0", dir)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	done := make(chan struct{})
	go func() { err := cmd.Wait(); close(done); exited <- err }()
	defer func() { cmd.Process.Kill(); <-done }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	frameworks := func() float64 {
		out, text := callText(t, cs, "list_frameworks", map[string]any{"request": map[string]any{}})
		if out == nil {
			t.Fatalf("list_frameworks: %s", text)
		}
		n, _ := out["totalMatchingCount"].(float64)
		return n
	}
	waitFor := func(what string, ok func() bool) {
		for deadline := time.Now().Add(15 * time.Second); !ok(); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %s; stderr:\n%s", what, stderr.String())
			}
		}
	}
	if n := frameworks(); n != 1 {
		t.Fatalf("%v frameworks before the reload", n)
	}
	copyFile(maths[0], filepath.Join(dir, filepath.Base(maths[0])))
	cmd.Process.Signal(syscall.SIGHUP)
	waitFor("reload", func() bool { return frameworks() == 2 })
	waitFor("unmapping of the old images", func() bool { return strings.Contains(stderr.String(), "previous images unmapped") })

	b, _ := os.ReadFile(maths[0])
	b[len(b)/2] ^= 1
	os.WriteFile(filepath.Join(dir, "zz-corrupt.kgimg"), b, 0o644)
	cmd.Process.Signal(syscall.SIGHUP)
	waitFor("refusal", func() bool { return strings.Contains(stderr.String(), "reload refused") })
	if n := frameworks(); n != 2 {
		t.Errorf("%v frameworks after a refused reload", n)
	}
	cs.Close()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit: %v\n%s", err, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Error("no exit after the input closed")
	}
}
