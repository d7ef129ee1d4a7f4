package query

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkgtest"
)

// TestStatementsRankBeforeTheirRepeats: three standards that carry one
// boilerplate statement word for word (the kind a source repeats under
// several standards) rank after a standard whose own statement matches the
// query equally well, whatever their curriculum positions.
func TestStatementsRankBeforeTheirRepeats(t *testing.T) {
	const maths = "kgc-sample-mathematics-grades-1-3"
	f := pkgtest.Sample(t, maths)
	repeat := "At later grades, pupils recognise area as an attribute of plane figures."
	own := "Recognise area as an attribute of plane figures."
	codes := map[string]string{"M1.1.1.1": repeat, "M1.1.1.2": repeat, "M1.1.1.3": repeat, "M3.3.3.3": own}
	f.Records(t, "delivery/nodes.jsonl", func(rec map[string]any) []map[string]any {
		p := rec["properties"].(map[string]any)
		c, _ := p["statementCode"].(string)
		if d, ok := codes[c]; ok {
			p["description"] = d
		}
		return []map[string]any{rec}
	})
	f.Seal(t)
	dir := t.TempDir()
	data, res := imgtest.Build(t, f.Dir, f.Profiles, "")
	if err := os.WriteFile(filepath.Join(dir, res.Manifest.SnapshotID+".kgimg"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := New(imgtest.Catalog(t, dir), Options{})
	hits, err := s.SearchStandards(context.Background(), NewStandardSearchRequest("area attribute plane figures", maths))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits.Page.Hits {
		got = append(got, deref(h.Node.StatementCode))
	}
	want := []string{"M3.3.3.3", "M1.1.1.1", "M1.1.1.2", "M1.1.1.3"}
	if b, _ := json.Marshal(got); !bytes.Equal(b, mustJSON(want)) {
		t.Errorf("ranked %v, want %v (the statement before its repeats, then curriculum order)", got, want)
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }
