package main

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// releaseVersion is the version the test release build is stamped with.
const releaseVersion = "v9.8.7-test"

var (
	releaseOnce sync.Once
	releaseBin  string
	releaseErr  error
)

// releaseBinary builds kgmcp once per test run as tools/dist.sh does (static,
// trimmed, stamped with releaseVersion), for the tests of release artifacts.
func releaseBinary(t *testing.T) string {
	t.Helper()
	releaseOnce.Do(func() {
		// Beside the test binary: TestMain removes the directory.
		releaseBin = filepath.Join(filepath.Dir(binary), "kgmcp-release")
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -buildid= -X github.com/kgc-project/kgc/internal/version.Version="+releaseVersion, "-o", releaseBin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			releaseErr = fmt.Errorf("release build: %v\n%s", err, b)
		}
	})
	if releaseErr != nil {
		t.Fatal(releaseErr)
	}
	return releaseBin
}

// The release build (tools/dist.sh's flags) is static and reports the
// version stamped at link time in --version and in the MCP serverInfo.
func TestReleaseBuildIsStaticAndStamped(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("SKIP: checks an ELF binary")
	}
	t.Parallel()
	out := releaseBinary(t)
	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the release binary asks for a dynamic loader (PT_INTERP): it is not static")
		}
	}
	const v = releaseVersion
	if b, err := exec.Command(out, "--version").Output(); err != nil || strings.TrimSpace(string(b)) != "kgmcp "+v {
		t.Errorf("--version: %q %v", b, err)
	}
	srv := exec.Command(out, shippedImages(t))
	srv.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	b, err := srv.Output()
	if err != nil || !strings.Contains(string(b), `"version":"`+v+`"`) {
		t.Errorf("serverInfo.version: %s %v", b, err)
	}
}
