package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kgc-project/kgc/internal/pkgtest"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kgc-test-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "kgc")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building kgc: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const english = "kgc-sample-english-grades-1-2"

type result struct {
	code           int
	stdout, stderr string
	peakRSS        int64         // bytes, from the child's rusage
	outBlocks      int64         // file system output blocks (512 bytes), from its rusage
	cpu            time.Duration // user + system CPU time, from its rusage
}

// kgc runs the binary and reports its exit code, output and peak RSS.
func kgc(t *testing.T, args ...string) result {
	t.Helper()
	return kgcIn(t, "", nil, args...)
}

type report struct {
	Packages []struct {
		ErrorCount      int `json:"errorCount"`
		Findings        []struct{ Code string }
		FindingsOmitted int            `json:"findingsOmitted"`
		FindingCounts   map[string]int `json:"findingCounts"`
	} `json:"packages"`
}

func jsonReport(t *testing.T, r result) report {
	t.Helper()
	var rep report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Packages) != 1 {
		t.Fatalf("report: %v\n%.500s\n%s", err, r.stdout, r.stderr)
	}
	return rep
}

// TestMillionsOfFindingsInBoundedMemory: a 6 MB nodes file of empty records
// gives millions of findings (it took 2.15 GB when every one was kept). kgc
// keeps the ones it shows and counts the rest by code.
func TestMillionsOfFindingsInBoundedMemory(t *testing.T) {
	f := pkgtest.Sample(t, english)
	f.WriteFile(t, "delivery/nodes.jsonl", bytes.Repeat([]byte("{}\n"), 2_000_000))
	f.Seal(t)
	r := kgc(t, "validate", "--profiles", f.Profiles, "--error-format", "json", "--max-findings", "50", f.Dir)
	rep := jsonReport(t, r)
	p := rep.Packages[0]
	if r.code != 1 || p.ErrorCount < 3_000_000 || len(p.Findings) != 50 || p.FindingsOmitted != p.ErrorCount-50 {
		t.Fatalf("exit %d, %d errors, %d shown, %d omitted", r.code, p.ErrorCount, len(p.Findings), p.FindingsOmitted)
	}
	total := 0
	for _, n := range p.FindingCounts {
		total += n
	}
	if total != p.ErrorCount {
		t.Errorf("counts by code add up to %d, not %d: %v", total, p.ErrorCount, p.FindingCounts)
	}
	t.Logf("%d findings (%v); peak RSS %.1f MB", p.ErrorCount, p.FindingCounts, float64(r.peakRSS)/1e6)
	if r.peakRSS > 100<<20 {
		t.Errorf("peak RSS %d bytes over 100 MiB", r.peakRSS)
	}
}

// TestHugeManifestIsNotRead: a 2 GB sparse manifest (it cost 4.57 GB when it
// was read before its size was checked) is refused by its size.
func TestHugeManifestIsNotRead(t *testing.T) {
	f := pkgtest.Sample(t, english)
	if err := os.Truncate(f.Path("package_manifest.json"), 2<<30); err != nil {
		t.Fatal(err)
	}
	r := kgc(t, "validate", "--profiles", f.Profiles, "--error-format", "json", f.Dir)
	rep := jsonReport(t, r)
	if r.code != 1 || rep.Packages[0].FindingCounts["file_too_large"] != 1 {
		t.Fatalf("exit %d: %v", r.code, rep.Packages[0].FindingCounts)
	}
	if r.peakRSS > 100<<20 {
		t.Errorf("peak RSS %d bytes over 100 MiB", r.peakRSS)
	}
}

// TestDeepNestingIsBounded: 3,000 nested directories (8.1 s when every level
// was opened from the package root) are reported as one undeclared directory;
// nothing below the depth an artifact path can reach is entered.
func TestDeepNestingIsBounded(t *testing.T) {
	f := pkgtest.Sample(t, english)
	// Each level is made relative to the one above (an absolute path this
	// deep is over the system's limit).
	dir, err := os.OpenRoot(f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3000; i++ {
		name := "d"
		if i == 0 {
			name = "deep"
		}
		if err := dir.Mkdir(name, 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := dir.OpenRoot(name)
		dir.Close()
		if err != nil {
			t.Fatal(err)
		}
		dir = next
	}
	dir.Close()
	r := kgc(t, "validate", "--profiles", f.Profiles, "--error-format", "json", f.Dir)
	rep := jsonReport(t, r)
	if r.code != 1 || rep.Packages[0].FindingCounts["tree_undeclared_directory"] != 1 || rep.Packages[0].ErrorCount != 1 {
		t.Fatalf("exit %d: %v", r.code, rep.Packages[0].FindingCounts)
	}
}

// TestFIFOSwappedInDoesNotHang swaps a declared artifact for a FIFO and back
// while the gate runs: opening a FIFO for reading blocks until a writer comes,
// which hung the gate forever. Every run must end with a verdict.
func TestFIFOSwappedInDoesNotHang(t *testing.T) {
	f := pkgtest.Sample(t, english)
	nodes := f.Path("delivery/nodes.jsonl")
	real, fifo := nodes+".real", nodes+".fifo"
	b, _ := os.ReadFile(nodes)
	os.WriteFile(real, b, 0o644)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("SKIP: mkfifo: %v", err)
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	defer func() { close(stop); <-stopped }() // before TempDir's cleanup removes the files
	go func() {
		defer close(stopped)
		// Hard links keep both versions around while the name flips.
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			src := real
			if i%2 == 0 {
				src = fifo
			}
			tmp := nodes + ".swap"
			os.Remove(tmp)
			if os.Link(src, tmp) == nil {
				os.Rename(tmp, nodes)
			}
		}
	}()
	for i := 0; i < 20; i++ {
		done := make(chan result, 1)
		go func() { done <- kgc(t, "validate", "--profiles", f.Profiles, f.Dir) }()
		select {
		case r := <-done:
			if r.code != 1 {
				t.Fatalf("run %d: exit %d\n%s%s", i, r.code, r.stdout, r.stderr)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("run %d: the gate hung on a FIFO", i)
		}
	}
}

// TestStaleTempFilesAreRemoved: a build killed while writing leaves its temp
// file; the next build into the directory removes it (but never the temp file
// of a build still running, which holds its lock).
func TestStaleTempFilesAreRemoved(t *testing.T) {
	f := pkgtest.Sample(t, english)
	out := t.TempDir()
	stale := filepath.Join(out, ".x.kgimg.tmp-123")
	os.WriteFile(stale, make([]byte, 1<<20), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	if r := kgc(t, "build", "--profiles", f.Profiles, "-o", out, f.Dir); r.code != 0 {
		t.Fatalf("build: %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temp file is still there: %v", err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 || !strings.HasSuffix(entries[0].Name(), ".kgimg") {
		t.Errorf("output directory: %v", entries)
	}
}
