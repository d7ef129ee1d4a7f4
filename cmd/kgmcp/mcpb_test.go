package main

import (
	"archive/zip"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/smoke"
)

// unzip extracts an archive, keeping the members' modes.
func unzip(t *testing.T, archive, dir string) {
	t.Helper()
	zr, err := zip.OpenReader(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if f.FileInfo().IsDir() {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		rc, _ := f.Open()
		out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, f.Mode().Perm())
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(out, rc)
		rc.Close()
		out.Close()
	}
}

// bundleArgv reads an unpacked bundle's manifest and returns the command a
// host runs: mcp_config's command and args with ${__dirname} replaced by the
// bundle's directory.
func bundleArgv(t *testing.T, dir string) []string {
	t.Helper()
	var m struct {
		Version string `json:"version"`
		Server  struct {
			Type      string `json:"type"`
			MCPConfig struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcp_config"`
		} `json:"server"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err := json.Unmarshal(b, &m); err != nil || m.Server.Type != "binary" || m.Version != "1.2.3" {
		t.Fatalf("manifest: %v %s", err, b)
	}
	argv := []string{strings.ReplaceAll(m.Server.MCPConfig.Command, "${__dirname}", dir)}
	for _, a := range m.Server.MCPConfig.Args {
		argv = append(argv, strings.ReplaceAll(a, "${__dirname}", dir))
	}
	return argv
}

// smokeBundle runs kgc smoke's checks over stdio against argv and requires
// them to pass and the server to exit cleanly; the server's stderr is
// returned.
func smokeBundle(t *testing.T, argv []string) string {
	t.Helper()
	var stderr lockedBuffer
	s, err := smoke.Stdio(context.Background(), argv, &stderr)
	if err != nil {
		t.Fatalf("%v\nstderr: %s", err, stderr.String())
	}
	if s.Status != "passed" || s.CleanExit == nil || !*s.CleanExit {
		t.Errorf("the unpacked bundle: %+v\nstderr: %s", s, stderr.String())
	}
	return stderr.String()
}

// loseModes sets every file under dir to 0600, as Claude Desktop on macOS
// extracts a bundle whatever modes the archive stores
// (modelcontextprotocol/mcpb#294).
func loseModes(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chmod(p, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// make mcpb's script stages the bundle, validates and packs it with the
// pinned official mcpb CLI and checks the archive against the stage; the
// bundle, unpacked, is started the way a host starts it (its manifest's
// command) and passes kgc smoke and the TypeScript SDK client. It still
// passes when unpacked without its files' modes (every file 0600, as Claude
// Desktop on macOS extracts it): the launcher restores the binary's execute
// bit, or, where it cannot, runs a private copy and removes it on exit.
func TestMCPBBundle(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("SKIP: builds a linux bundle")
	}
	clients := mcpClients(t) // the pinned npm tools: the mcpb CLI and the TypeScript SDK client
	t.Parallel()
	root, _ := filepath.Abs("../..")
	dist := t.TempDir()
	bin := filepath.Join(dist, "linux-"+runtime.GOARCH, "kgmcp")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	b, err := os.ReadFile(releaseBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(bin, b, 0o755)
	bundle := filepath.Join(t.TempDir(), "kgmcp.mcpb")
	cmd := exec.Command("sh", filepath.Join(root, "tools", "mcpb.sh"), bundle)
	cmd.Dir = root
	stage := filepath.Join(t.TempDir(), "stage")
	cmd.Env = append(os.Environ(), "DIST="+dist, "IMAGES="+shippedImages(t), "STAGE="+stage, "VERSION=v1.2.3")
	if out, err := cmd.CombinedOutput(); err != nil {
		if strings.Contains(string(out), "pinned npm tools are unavailable") {
			t.Skip("SKIP: the pinned npm tools could not be installed")
		}
		t.Fatalf("tools/mcpb.sh: %v\n%s", err, out)
	} else if !strings.Contains(string(out), "mcpbcheck: ok") {
		t.Fatalf("the archive was not checked:\n%s", out)
	}
	if _, err := os.Stat(stage); !os.IsNotExist(err) {
		t.Errorf("the stage is left behind: %v", err)
	}
	server := filepath.Join("server", "kgmcp-linux-"+runtime.GOARCH)

	t.Run("modes kept", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		unzip(t, bundle, dir)
		argv := bundleArgv(t, dir)
		smokeBundle(t, argv)
		res := probe(t, clients, map[string]any{"transport": "stdio", "command": argv[0], "args": argv[1:]},
			[]map[string]any{{"method": "tools/list"}})
		var list struct{ Tools []any }
		json.Unmarshal(res.Steps[0].Result, &list)
		if !res.Steps[0].OK || len(list.Tools) != 20 {
			t.Errorf("the TypeScript SDK client on the bundle: %+v", res.Steps[0])
		}
	})

	// Every file 0600, the launcher too: the launcher, run by sh, restores
	// the binary's execute bit (for its owner only) and runs it.
	t.Run("modes lost", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		unzip(t, bundle, dir)
		loseModes(t, dir)
		smokeBundle(t, bundleArgv(t, dir))
		if fi, err := os.Stat(filepath.Join(dir, server)); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("the binary's mode after a start: %v %v (want -rwx------)", fi.Mode(), err)
		}
	})

	// Every file 0600 and the launcher unable to chmod anything in the
	// bundle (a read-only or foreign-owned install; a stub chmod refuses, as
	// the tests run as root): it runs a private copy of the binary from a
	// fresh directory under TMPDIR, leaves the bundle as it was, and removes
	// the copy once the server has exited.
	t.Run("modes lost, bundle not writable", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		unzip(t, bundle, dir)
		loseModes(t, dir)
		stub := t.TempDir()
		chmod, err := exec.LookPath("chmod")
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(stub, "chmod"), []byte("#!/bin/sh\ncase \"$*\" in *"+dir+"*) echo \"chmod: $*: Read-only file system\" >&2; exit 1 ;; esac\nexec "+chmod+" \"$@\"\n"), 0o755)
		tmp := t.TempDir()
		argv := append([]string{"env", "PATH=" + stub + string(os.PathListSeparator) + os.Getenv("PATH"), "TMPDIR=" + tmp}, bundleArgv(t, dir)...)
		stderr := smokeBundle(t, argv)
		if !strings.Contains(stderr, "private copy") {
			t.Errorf("the launcher did not say it ran a copy: %s", stderr)
		}
		if fi, err := os.Stat(filepath.Join(dir, server)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("the bundle's binary was changed: %v %v", fi.Mode(), err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			left, _ := os.ReadDir(tmp)
			if len(left) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("the private copy was left behind: %v", left)
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}
