package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// The runs of one benchmark (go test -count 3) make one row, each value
// min–median–max over the runs, nanoseconds in a readable unit.
func TestRenderFoldsRuns(t *testing.T) {
	in := strings.Join([]string{
		"goos: linux",
		"BenchmarkGate-2   20   17600000 ns/op   118.84 MB/s",
		"BenchmarkGate-2   20   13900000 ns/op   150.36 MB/s",
		"BenchmarkGate-2   20   18300000 ns/op   114.16 MB/s",
		"BenchmarkBase-2   20   10600000 ns/op   197.34 MB/s",
		"PASS",
		"ok  	pkg	1.0s",
	}, "\n")
	out := capture(t, func() {
		n, err := render(strings.NewReader(in))
		if err != nil || n != 4 {
			t.Fatalf("render: %d results, %v", n, err)
		}
	})
	for _, want := range []string{
		"| BenchmarkGate-2 | 3 | 20 | 13.9–17.6–18.3 ms/op, 114.16–118.84–150.36 MB/s |",
		"| BenchmarkBase-2 | 1 | 20 | 10.6 ms/op, 197.34 MB/s |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no row %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "goos") || strings.Contains(out, "PASS") {
		t.Errorf("go test's framing lines kept:\n%s", out)
	}
}

func capture(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	defer func() { os.Stdout = stdout }()
	f()
	w.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A side of an interleaved pair is one benchmark line: its ns/op is read,
// and a pattern that matches no benchmark, or more than one, is an error.
func TestOneResult(t *testing.T) {
	out := "goos: linux\nBenchmarkNewServer/kgmcp-2   200   1760000 ns/op   2130000 B/op   1119 allocs/op\nPASS\n"
	var f []string
	var ns float64
	var err error
	printed := capture(t, func() { f, ns, err = oneResult([]byte(out)) })
	if err != nil || ns != 1760000 || f[0] != "BenchmarkNewServer/kgmcp-2" {
		t.Errorf("oneResult = %q, %v, %v", f, ns, err)
	}
	if printed != "" {
		t.Errorf("framing printed: %q", printed)
	}
	for _, bad := range []string{"PASS\n", out + "BenchmarkNewServer/empty-go-sdk-2   200   3800 ns/op\n"} {
		capture(t, func() { _, _, err = oneResult([]byte(bad)) })
		if err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
}
