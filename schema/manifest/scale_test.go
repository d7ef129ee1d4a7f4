package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// manyArtifacts returns a shipped manifest with n additional artifacts and
// their checksums spliced in.
func manyArtifacts(tb testing.TB, n int) []byte {
	ms, _ := filepath.Glob("../../packages/*/*/package_manifest.json")
	if len(ms) == 0 {
		tb.Fatal("no shipped manifests found")
	}
	b, err := os.ReadFile(ms[0])
	if err != nil {
		tb.Fatal(err)
	}
	s := string(b)
	var add, sums strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			add.WriteString(",")
		}
		fmt.Fprintf(&add, `"extra_%06d":"additional/extra_%06d.json"`, i, i)
		fmt.Fprintf(&sums, `"additional/extra_%06d.json":"sha256:%064d",`, i, i)
	}
	s = strings.Replace(s, `"additionalArtifacts": {}`, `"additionalArtifacts": {`+add.String()+`}`, 1)
	s = strings.Replace(s, `"checksums": {`, `"checksums": {`+sums.String(), 1)
	return []byte(s)
}

// Decoding is linear in the artifacts: 50,000 of them took 16.9 s and 200,000
// took 207 s when every member lookup scanned the object. Compare the ns/op of
// the two sizes (a linear decoder costs about 10x more for 10x the artifacts).
func BenchmarkDecodeManyArtifacts(b *testing.B) {
	for _, n := range []int{20000, 200000} {
		data := manyArtifacts(b, n)
		b.Run(fmt.Sprintf("artifacts=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				m, _ := Decode(data)
				if m == nil || len(m.Artifacts) < n {
					b.Fatalf("decoded %v", m)
				}
			}
		})
	}
}

// Every spliced artifact is decoded, indexed and found by name and path.
func TestDecodeManyArtifacts(t *testing.T) {
	const n = 50000
	m, _ := Decode(manyArtifacts(t, n))
	if m == nil {
		t.Fatal("no manifest")
	}
	for _, i := range []int{0, n / 2, n - 1} {
		name := fmt.Sprintf("extra_%06d", i)
		a, ok := m.Artifact(name)
		if !ok || m.NameOf(a.Path) != name || m.Checksums[a.Path] == "" {
			t.Errorf("%s: %+v %v", name, a, ok)
		}
	}
}
