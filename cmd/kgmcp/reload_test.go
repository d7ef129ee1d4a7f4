package main

import (
	"context"
	bin "encoding/binary"
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

// reloadRig is kgmcp serving a directory that starts with the English sample
// only, driven by the Go client over stdio.
type reloadRig struct {
	t              *testing.T
	dir            string
	english, maths string // the shipped images, outside dir
	cmd            *exec.Cmd
	stderr         *lockedBuffer
	cs             *mcp.ClientSession
	exited         chan error
}

func newReloadRig(t *testing.T, args ...string) *reloadRig {
	src := shippedImages(t)
	r := &reloadRig{t: t, dir: t.TempDir(), stderr: &lockedBuffer{}, exited: make(chan error, 1)}
	english, _ := filepath.Glob(filepath.Join(src, pkggen.Shipped()[0].FrameworkID+"@*.kgimg"))
	maths, _ := filepath.Glob(filepath.Join(src, pkggen.Shipped()[1].FrameworkID+"@*.kgimg"))
	r.english, r.maths = english[0], maths[0]
	r.add(r.english)
	r.cmd = exec.Command(binary, append(args, r.dir)...)
	r.cmd.Stderr = r.stderr
	stdin, _ := r.cmd.StdinPipe()
	stdout, _ := r.cmd.StdoutPipe()
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { err := r.cmd.Wait(); close(done); r.exited <- err }()
	t.Cleanup(func() { r.cmd.Process.Kill(); <-done })
	var err error
	r.cs, err = mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// add copies an image into the directory under its own name, by rename: a
// served file is never written in place.
func (r *reloadRig) add(image string) {
	b, err := os.ReadFile(image)
	if err != nil {
		r.t.Fatal(err)
	}
	to := filepath.Join(r.dir, filepath.Base(image))
	os.WriteFile(to+".tmp", b, 0o644)
	if err := os.Rename(to+".tmp", to); err != nil {
		r.t.Fatal(err)
	}
}

func (r *reloadRig) frameworks() float64 {
	out, text := callText(r.t, r.cs, "list_frameworks", map[string]any{"request": map[string]any{}})
	if out == nil {
		r.t.Fatalf("list_frameworks: %s", text)
	}
	n, _ := out["totalMatchingCount"].(float64)
	return n
}

func (r *reloadRig) waitFor(what string, ok func() bool) {
	for deadline := time.Now().Add(15 * time.Second); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			r.t.Fatalf("no %s; stderr:\n%s", what, r.stderr.String())
		}
	}
}

func (r *reloadRig) logged(s string) func() bool {
	return func() bool { return strings.Contains(r.stderr.String(), s) }
}

// corrupt writes a copy of an image with one byte flipped into the directory.
func (r *reloadRig) corrupt(image, name string) {
	b, _ := os.ReadFile(image)
	// Inside the catalog part, which a reload verifies (the rest of an
	// image is verified on its first use).
	b[bin.LittleEndian.Uint32(b[48:])+bin.LittleEndian.Uint32(b[52:])/2] ^= 1
	os.WriteFile(filepath.Join(r.dir, name), b, 0o644)
}

// closeAndWait ends the session and requires a clean exit.
func (r *reloadRig) closeAndWait() {
	r.cs.Close()
	select {
	case err := <-r.exited:
		if err != nil {
			r.t.Errorf("exit: %v\n%s", err, r.stderr.String())
		}
	case <-time.After(15 * time.Second):
		r.t.Error("no exit after the input closed")
	}
}

// SIGHUP reloads the image set: a new image in the directory is served after
// it; a corrupt one leaves the old set serving (logged); the session goes on.
func TestReloadOnSIGHUP(t *testing.T) {
	t.Parallel()
	r := newReloadRig(t, "--watch-interval", "0")
	if n := r.frameworks(); n != 1 {
		t.Fatalf("%v frameworks before the reload", n)
	}
	r.add(r.maths)
	r.cmd.Process.Signal(syscall.SIGHUP)
	r.waitFor("reload", func() bool { return r.frameworks() == 2 })
	r.waitFor("unmapping of the old images", r.logged("previous images unmapped"))

	r.corrupt(r.maths, "zz-corrupt.kgimg")
	r.cmd.Process.Signal(syscall.SIGHUP)
	r.waitFor("refusal", r.logged("reload refused"))
	if n := r.frameworks(); n != 2 {
		t.Errorf("%v frameworks after a refused reload", n)
	}
	r.closeAndWait()
}

// --reload-on-change reloads when the directory's images change: one added,
// one removed; a corrupt one is refused once (not again every interval) and
// the old set keeps serving; removing it is a change that reloads again.
func TestReloadOnChange(t *testing.T) {
	t.Parallel()
	if code, _, stderr := run(t, "--reload-on-change", "--watch-interval", "0", "x.kgimg"); code != 2 || !strings.Contains(stderr, "--reload-on-change needs") {
		t.Errorf("--reload-on-change without a watch interval: exit %d %s", code, stderr)
	}
	r := newReloadRig(t, "--reload-on-change", "--watch-interval", "50ms")
	if n := r.frameworks(); n != 1 {
		t.Fatalf("%v frameworks at start", n)
	}
	r.add(r.maths)
	r.waitFor("reload after an image was added", func() bool { return r.frameworks() == 2 })
	if !r.logged("the image files changed; reloading")() {
		t.Errorf("the reload was not logged: %s", r.stderr.String())
	}
	os.Remove(filepath.Join(r.dir, filepath.Base(r.english)))
	r.waitFor("reload after an image was removed", func() bool { return r.frameworks() == 1 })

	r.corrupt(r.english, "zz-corrupt.kgimg")
	r.waitFor("refusal", r.logged("reload refused"))
	time.Sleep(300 * time.Millisecond) // six intervals
	if n := strings.Count(r.stderr.String(), "reload refused"); n != 1 {
		t.Errorf("the refused set was tried %d times", n)
	}
	if n := r.frameworks(); n != 1 {
		t.Errorf("%v frameworks after a refused reload", n)
	}
	os.Remove(filepath.Join(r.dir, "zz-corrupt.kgimg"))
	r.add(r.english)
	r.waitFor("reload once the set is good again", func() bool { return r.frameworks() == 2 })
	r.closeAndWait()
}
