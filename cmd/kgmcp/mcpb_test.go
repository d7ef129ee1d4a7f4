package main

import (
	"archive/zip"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

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

// make mcpb's script stages the bundle, validates and packs it with the
// pinned official mcpb CLI and checks the archive against the stage; the
// bundle, unpacked, is started the way a host starts it (its manifest's
// command) and passes kgc smoke and the TypeScript SDK client.
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
	cmd.Env = append(os.Environ(), "DIST="+dist, "IMAGES="+shippedImages(t), "STAGE="+filepath.Join(t.TempDir(), "stage"), "VERSION=v1.2.3")
	if out, err := cmd.CombinedOutput(); err != nil {
		if strings.Contains(string(out), "pinned npm tools are unavailable") {
			t.Skip("SKIP: the pinned npm tools could not be installed")
		}
		t.Fatalf("tools/mcpb.sh: %v\n%s", err, out)
	} else if !strings.Contains(string(out), "mcpbcheck: ok") {
		t.Fatalf("the archive was not checked:\n%s", out)
	}

	dir := t.TempDir()
	unzip(t, bundle, dir)
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
	b, _ = os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err := json.Unmarshal(b, &m); err != nil || m.Server.Type != "binary" || m.Version != "1.2.3" {
		t.Fatalf("manifest: %v %s", err, b)
	}
	argv := []string{m.Server.MCPConfig.Command}
	for _, a := range m.Server.MCPConfig.Args {
		argv = append(argv, strings.ReplaceAll(a, "${__dirname}", dir))
	}
	s, err := smoke.Stdio(context.Background(), argv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != "passed" || s.CleanExit == nil || !*s.CleanExit {
		t.Errorf("the unpacked bundle: %+v", s)
	}
	res := probe(t, clients, map[string]any{"transport": "stdio", "command": argv[0], "args": argv[1:]},
		[]map[string]any{{"method": "tools/list"}})
	var list struct{ Tools []any }
	json.Unmarshal(res.Steps[0].Result, &list)
	if !res.Steps[0].OK || len(list.Tools) != 19 {
		t.Errorf("the TypeScript SDK client on the bundle: %+v", res.Steps[0])
	}
}
