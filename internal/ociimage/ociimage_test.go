package ociimage

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/smoke"
)

// staticKgmcp builds a static linux kgmcp for this machine's architecture.
func staticKgmcp(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "kgmcp")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -buildid=", "-o", out, "github.com/kgc-project/kgc/cmd/kgmcp")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building kgmcp: %v\n%s", err, b)
	}
	return out
}

// The image is deterministic, runs as a non-root user, and its entrypoint,
// run from its unpacked layers (chroot, as that user), serves /health and
// /mcp over the images it carries.
func TestImageRunsFromItsLayers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("SKIP: runs a linux image")
	}
	bin := staticKgmcp(t)
	images, _ := filepath.Glob(filepath.Join(imgtest.Images(t, nil, nil), "*.kgimg"))
	opts := Options{Kgmcp: bin, Images: images, Arch: runtime.GOARCH, Version: "test"}
	img, err := Build(opts)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Build(opts)
	d1, _ := img.Digest()
	d2, _ := again.Digest()
	if d1 != d2 {
		t.Errorf("two builds give %s and %s", d1, d2)
	}
	layoutDir := filepath.Join(t.TempDir(), "oci")
	if err := WriteLayout(layoutDir, img); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(layoutDir, "index.json")); err != nil {
		t.Errorf("no OCI layout: %v", err)
	}
	cfg, _ := img.ConfigFile()
	if cfg.Config.User != fmt.Sprintf("%d:%d", uid, uid) || len(cfg.Config.Entrypoint) != 1 || cfg.Config.Entrypoint[0] != binaryPath {
		t.Fatalf("config %+v", cfg.Config)
	}

	if os.Geteuid() != 0 {
		t.Skip("SKIP: running the image from its layers needs chroot (root); the build checks above ran")
	}
	root := t.TempDir()
	os.Chmod(root, 0o755)
	if err := extract(img, root); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(root, "images")); err != nil || fi.Mode().Perm() != 0o555 {
		t.Errorf("/images is not read-only: %v %v", fi.Mode(), err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	args := append([]string(nil), cfg.Config.Cmd...)
	for i, a := range args {
		if strings.HasPrefix(a, "0.0.0.0:") {
			args[i] = addr // a free port instead of the image's 8080
		}
	}
	cmd := exec.Command(cfg.Config.Entrypoint[0], args...)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	var status int
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get("http://" + addr + "/health"); err == nil {
			status = resp.StatusCode
			resp.Body.Close()
			if status == 200 {
				break
			}
		}
	}
	if status != 200 {
		t.Fatalf("/health: %d\n%s", status, stderr.String())
	}
	// Checked the way a host uses it (kgc smoke's checks) over HTTP.
	sm, err := smoke.HTTP(context.Background(), "http://"+addr+"/mcp", "")
	if err != nil {
		t.Fatal(err)
	}
	if sm.Status != "passed" || sm.ToolCallCount != 20 || sm.ResourceReadCount != 16 {
		t.Errorf("smoke over the image's /mcp: %+v", sm)
	}
}
