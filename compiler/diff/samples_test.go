package diff

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
)

const mathSample = "kgc-sample-mathematics-grades-1-3"

// mathSpec returns the shipped mathematics sample's spec.
func mathSpec(t *testing.T) pkggen.Spec {
	for _, s := range pkggen.Shipped() {
		if s.FrameworkID == mathSample {
			return s
		}
	}
	t.Fatal("no mathematics sample")
	return pkggen.Spec{}
}

// itemByCode returns the node record of the shipped mathematics sample with a
// statement code, read from a fixture.
func itemByCode(t *testing.T, f *pkgtest.Fixture, code string) map[string]any {
	t.Helper()
	for _, line := range bytes.Split(bytes.TrimSpace(f.Read(t, "delivery/nodes.jsonl")), []byte("\n")) {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		if rec["properties"].(map[string]any)["statementCode"] == code {
			return rec
		}
	}
	t.Fatalf("no item with code %s", code)
	return nil
}

// mutate writes the mathematics sample twice and changes the second copy:
// M1.1.1.1 reworded, M1.1.1.2 recoded to M1.1.1.9, M1.1.1.3 regraded to
// grade 2, M1.1.2.1 moved under M1.1.3 (and recoded M1.1.3.9, as the code
// parent rule asks). Both pass the gate.
func mutate(t *testing.T) (old, new *pkgtest.Fixture) {
	t.Helper()
	old, new = pkgtest.Sample(t, mathSample), pkgtest.Sample(t, mathSample)
	moved := itemByCode(t, new, "M1.1.2.1")["identifier"].(string)
	target := itemByCode(t, new, "M1.1.3")
	targetID := target["identifier"].(string)
	targetUUID := target["properties"].(map[string]any)["caseIdentifierUUID"].(string)
	new.Records(t, "delivery/nodes.jsonl", func(rec map[string]any) []map[string]any {
		p := rec["properties"].(map[string]any)
		switch p["statementCode"] {
		case "M1.1.1.1":
			p["description"] = strings.Replace(p["description"].(string), " ", " carefully ", 1) + " in class"
		case "M1.1.1.2":
			p["statementCode"] = "M1.1.1.9"
		case "M1.1.1.3":
			p["gradeLevel"] = `["2"]`
		case "M1.1.2.1":
			p["statementCode"] = "M1.1.3.9"
		}
		return []map[string]any{rec}
	})
	new.Records(t, "delivery/relationships.jsonl", func(rec map[string]any) []map[string]any {
		if rec["label"] == "hasChild" && rec["target_identifier"] == moved {
			rec["source_identifier"] = targetID
			rec["properties"].(map[string]any)["sourceEntityValue"] = targetUUID
		}
		return []map[string]any{rec}
	})
	new.Seal(t)
	// The progression receipt repeats the relationships' digest.
	sum := sha256.Sum256(new.Read(t, "delivery/relationships.jsonl"))
	new.Doc(t, "detailed/lp_normalization_receipt.json", func(doc map[string]any) {
		doc["outputSha256"].(map[string]any)["relationships"] = "sha256:" + hex.EncodeToString(sum[:])
	})
	new.Seal(t)
	return old, new
}

// variant writes the mathematics sample with a different shape: a fourth
// indicator per standard (standards, components and edges added) and two
// strands per grade instead of three (standards removed).
func variant(t *testing.T) (old, new *pkgtest.Fixture) {
	spec := mathSpec(t)
	old = pkgtest.Write(t, spec)
	spec.Indicators, spec.Strands = 4, 2
	new = pkgtest.Write(t, spec)
	return old, new
}

func load(t *testing.T, path, profiles string) *Snapshot {
	t.Helper()
	s, err := Load(path, gate.Options{ProfileRoot: profiles})
	if err != nil {
		var refused *gate.RefusedError
		if ok := asRefused(err, &refused); ok {
			t.Fatalf("%v: %+v", err, refused.Result.Findings.Items())
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func asRefused(err error, target **gate.RefusedError) bool {
	return errors.As(err, target)
}

func compare(t *testing.T, a, b *Snapshot) *Report {
	t.Helper()
	r, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// render returns the report in every format.
func render(t *testing.T, r *Report) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range Formats {
		var b bytes.Buffer
		if err := Write(&b, r, f); err != nil {
			t.Fatal(err)
		}
		out[f] = b.String()
	}
	return out
}

func TestDiffMutatedSample(t *testing.T) {
	old, new := mutate(t)
	r := compare(t, load(t, old.Dir, old.Profiles), load(t, new.Dir, new.Profiles))
	if r.Equal {
		t.Fatal("mutated sample reported equal")
	}
	want := map[string][]string{
		"M1.1.1.1": {changeReworded}, "M1.1.1.9": {changeRecoded}, "M1.1.1.3": {changeRegraded}, "M1.1.3.9": {changeRecoded, changeMoved},
	}
	got := map[string][]string{}
	for _, c := range r.StandardsChanged {
		got[c.New.Code] = c.Changes
		if c.MatchedBy != "nodeId" {
			t.Errorf("%s matched by %s, want nodeId", c.New.Code, c.MatchedBy)
		}
	}
	for code, kinds := range want {
		if !slices.Equal(got[code], kinds) {
			t.Errorf("%s: changes %v, want %v", code, got[code], kinds)
		}
	}
	if len(got) != len(want) {
		t.Errorf("changed standards %v, want %v", got, want)
	}
	for _, c := range r.StandardsChanged {
		switch c.New.Code {
		case "M1.1.1.1":
			if c.Old.Statement == nil || c.New.Statement == nil || !strings.HasSuffix(*c.New.Statement, " in class") {
				t.Errorf("reworded statements not shown: %+v", c)
			}
			ins := []string{}
			for _, op := range c.StatementDiff {
				if op.Op == opInsert {
					ins = append(ins, op.Text)
				}
			}
			if !slices.Equal(ins, []string{"carefully", "in class"}) {
				t.Errorf("word diff inserts %q, want [carefully, in class]: %+v", ins, c.StatementDiff)
			}
		case "M1.1.3.9":
			if len(c.Old.Parents) != 1 || c.Old.Parents[0].Code != "M1.1.2" || len(c.New.Parents) != 1 || c.New.Parents[0].Code != "M1.1.3" {
				t.Errorf("moved parents %+v → %+v, want M1.1.2 → M1.1.3", c.Old.Parents, c.New.Parents)
			}
		default:
			if c.Old.Statement != nil {
				t.Errorf("%s: statement shown though not reworded", c.New.Code)
			}
		}
	}
	if s := r.Summary; s.Reworded != 1 || s.Recoded != 2 || s.Regraded != 1 || s.Moved != 1 || s.StandardsAdded+s.StandardsRemoved+s.EdgesAdded+s.EdgesRemoved != 0 {
		t.Errorf("summary %+v", s)
	}
	// Recoding M1.1.1.2 as M1.1.1.9 puts it last among its siblings (they
	// are ordered by code); the moved standard left M1.1.2 and joined M1.1.3
	// last, which reorders no child present on both sides.
	if len(r.ChildrenReordered) != 1 {
		t.Fatalf("reordered %+v, want M1.1.1 only", r.ChildrenReordered)
	}
	ro := r.ChildrenReordered[0]
	short := func(refs []nodeRef) string {
		var out []string
		for _, n := range refs {
			out = append(out, n.Code)
		}
		return strings.Join(out, " ")
	}
	if ro.Parent.Code != "M1.1.1" || short(ro.Old) != "M1.1.1.1 M1.1.1.2 M1.1.1.3" || short(ro.New) != "M1.1.1.1 M1.1.1.3 M1.1.1.9" ||
		ro.OldBasis != "code" || ro.NewBasis != "code" {
		t.Errorf("reorder of %s: %s (%s) → %s (%s)", ro.Parent.Code, short(ro.Old), ro.OldBasis, short(ro.New), ro.NewBasis)
	}
	out := render(t, r)
	for f, needle := range map[string]string{
		FormatText:     "[-Demonstrate-]",
		formatMarkdown: "**carefully**",
		FormatJSON:     `"statementDiff"`,
	} {
		if f == FormatText {
			needle = "{+carefully+}"
		}
		if !strings.Contains(out[f], needle) {
			t.Errorf("%s output lacks %q:\n%s", f, needle, out[f])
		}
	}
}

func TestDiffVariantSample(t *testing.T) {
	old, new := variant(t)
	r := compare(t, load(t, old.Dir, old.Profiles), load(t, new.Dir, new.Profiles))
	s := r.Summary
	if s.StandardsAdded == 0 || s.StandardsRemoved == 0 || s.ComponentsAdded == 0 || s.ComponentsRemoved == 0 ||
		s.SupportsAdded == 0 || s.SupportsRemoved == 0 || s.EdgesAdded == 0 || s.EdgesRemoved == 0 {
		t.Errorf("every kind of addition and removal should be reported: %+v", s)
	}
	for _, st := range slices.Concat(r.StandardsAdded, r.StandardsRemoved) {
		if st.Statement == nil || *st.Statement == "" {
			t.Errorf("%s: added or removed standard without its statement", st.ID)
		}
	}
	if s.StandardsAdded != len(r.StandardsAdded) || s.EdgesRemoved != len(r.EdgesRemoved) {
		t.Errorf("summary counts disagree with the lists: %+v", s)
	}
}

// TestDiffImagesEqualPackages checks that images and packages give the same
// report (but for where they were read from), byte for byte in every format,
// and that a comparison runs the same twice.
func TestDiffImagesEqualPackages(t *testing.T) {
	old, new := mutate(t)
	dir := t.TempDir()
	var imgs []string
	for k, f := range []*pkgtest.Fixture{old, new} {
		data, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
		p := filepath.Join(dir, []string{"old.kgimg", "new.kgimg"}[k])
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		imgs = append(imgs, p)
	}
	fromPkg := compare(t, load(t, old.Dir, old.Profiles), load(t, new.Dir, new.Profiles))
	fromImg := compare(t, load(t, imgs[0], ""), load(t, imgs[1], ""))
	again := compare(t, load(t, imgs[0], ""), load(t, imgs[1], ""))
	for _, r := range []*Report{fromPkg, fromImg, again} {
		r.Old.Source, r.New.Source, r.Old.Format, r.New.Format = "OLD", "NEW", "x", "x"
	}
	a, b, c := render(t, fromPkg), render(t, fromImg), render(t, again)
	for _, f := range Formats {
		if a[f] != b[f] {
			t.Errorf("%s: package and image reports differ:\n%s\n---\n%s", f, a[f], b[f])
		}
		if b[f] != c[f] {
			t.Errorf("%s: two runs differ", f)
		}
	}
}

func TestDiffEqualAndMismatch(t *testing.T) {
	f := pkgtest.Sample(t, mathSample)
	a, b := load(t, f.Dir, f.Profiles), load(t, f.Dir, f.Profiles)
	if r := compare(t, a, b); !r.Equal || r.MatchedBy.NodeID != r.Old.Standards {
		t.Errorf("a package against itself: equal %v, matched %+v", r.Equal, r.MatchedBy)
	}
	e := pkgtest.Sample(t, "kgc-sample-english-grades-1-2")
	if _, err := Compare(a, load(t, e.Dir, e.Profiles)); err == nil {
		t.Error("two frameworks compared without an error")
	} else if _, ok := err.(*frameworkMismatchError); !ok {
		t.Errorf("error %T %v, want *frameworkMismatchError", err, err)
	}
}

func TestDiffRefusesInvalidPackage(t *testing.T) {
	f := pkgtest.Sample(t, mathSample)
	f.Records(t, "delivery/nodes.jsonl", func(rec map[string]any) []map[string]any {
		rec["properties"].(map[string]any)["isCurrent"] = "yes"
		return []map[string]any{rec}
	})
	f.Seal(t)
	_, err := Load(f.Dir, gate.Options{ProfileRoot: f.Profiles})
	var refused *gate.RefusedError
	if !asRefused(err, &refused) || refused.Result.Findings.Errors() == 0 {
		t.Fatalf("an invalid package was not refused with its findings: %v", err)
	}
}

// TestDiffForAPersonDecidingToPublish compares a package whose rights were
// unreviewed with the same framework approved, carrying its publisher's
// relations and one supports edge rescored: the rights come first, every
// edge is shown with its ends' codes and statements, grouped by standard,
// and packages and images give the same report.
func TestDiffForAPersonDecidingToPublish(t *testing.T) {
	spec := mathSpec(t)
	spec.DenyFullText, spec.Derivatives = true, "review_required"
	old := pkgtest.Write(t, spec)
	spec.DenyFullText, spec.Derivatives, spec.Publisher = false, "", true
	new := pkgtest.Write(t, spec)
	rescored := ""
	new.Records(t, "delivery/relationships.jsonl", func(rec map[string]any) []map[string]any {
		if rec["label"] == "supports" && rescored == "" {
			rec["properties"].(map[string]any)["supportConfidence"] = "0.25"
			rescored = rec["target_identifier"].(string)
		}
		return []map[string]any{rec}
	})
	new.Seal(t)
	sum := sha256.Sum256(new.Read(t, "delivery/relationships.jsonl"))
	new.Doc(t, "detailed/lp_normalization_receipt.json", func(doc map[string]any) {
		doc["outputSha256"].(map[string]any)["relationships"] = "sha256:" + hex.EncodeToString(sum[:])
	})
	new.Seal(t)

	r := compare(t, load(t, old.Dir, old.Profiles), load(t, new.Dir, new.Profiles))
	fields := map[string]fieldChange{}
	for i, f := range r.MetadataChanged {
		fields[f.Field] = f
		if i == 0 && !strings.HasPrefix(f.Field, "rights.") {
			t.Errorf("the first metadata change is %s: rights come first", f.Field)
		}
	}
	for name, want := range map[string][2]string{
		"rights.allowFullText":             {"false", "true"},
		"rights.allowGeneratedDerivatives": {"review_required", "allowed"},
	} {
		if f := fields[name]; f.Old != want[0] || f.New != want[1] {
			t.Errorf("%s: %q → %q, want %q → %q", name, f.Old, f.New, want[0], want[1])
		}
	}
	if r.Summary.PublisherAdded == 0 || r.Summary.PublisherAdded != r.New.PublisherRelations || r.Summary.PublisherRemoved != 0 {
		t.Errorf("publisher relations added %d of %d, removed %d", r.Summary.PublisherAdded, r.New.PublisherRelations, r.Summary.PublisherRemoved)
	}
	for _, p := range r.PublisherAdded {
		if p.Source == nil || p.Source.Statement == nil || *p.Source.Statement == "" || p.Source.Code == "" {
			t.Fatalf("publisher relation without its source's code and statement: %+v", p)
		}
	}
	if len(r.SupportsRescored) != 1 || r.SupportsRescored[0].Target.ID != rescored || *r.SupportsRescored[0].Confidence != 0.25 ||
		r.SupportsRescored[0].OldConfidence == nil || r.SupportsRescored[0].Target.Statement == nil || r.SupportsRescored[0].Source.Statement == nil {
		t.Errorf("rescored %+v, want the edge into %s at 0.25 with both statements", r.SupportsRescored, rescored)
	}
	if len(r.StandardsChanged)+len(r.ChildrenReordered)+len(r.EdgesAdded)+len(r.EdgesRemoved) != 0 {
		t.Errorf("changes beyond rights, relations and confidence: %+v", r.Summary)
	}
	text := render(t, r)[FormatText]
	rights := strings.Index(text, "rights, profile and metadata changed")
	pub := strings.Index(text, titlePublisher)
	sup := strings.Index(text, titleSupports)
	if rights < 0 || pub < 0 || sup < 0 || rights > sup || sup > pub {
		t.Errorf("sections missing or out of order (rights %d, supports %d, publisher %d):\n%s", rights, sup, pub, text)
	}
	// Grouped by standard: the publisher section names each standard once,
	// with its statement, and its relations under it.
	lines := strings.Split(text[pub:], "\n")
	heads := map[string]int{}
	for _, l := range lines {
		if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "    ") {
			heads[l]++
		}
	}
	for h, n := range heads {
		if n > 1 {
			t.Errorf("standard listed %d times in the publisher section: %q", n, h)
		}
	}
	if !strings.Contains(text, "+ precedes -> M") || !strings.Contains(text, "[sequence ") {
		t.Errorf("no precedes relation with its sequence shown:\n%s", text[pub:min(len(text), pub+2000)])
	}

	// The same report from images, but for where each side was read.
	dir := t.TempDir()
	var imgs []string
	for k, f := range []*pkgtest.Fixture{old, new} {
		data, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
		p := filepath.Join(dir, []string{"old.kgimg", "new.kgimg"}[k])
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		imgs = append(imgs, p)
	}
	fromImg := compare(t, load(t, imgs[0], ""), load(t, imgs[1], ""))
	for _, x := range []*Report{r, fromImg} {
		x.Old.Source, x.New.Source, x.Old.Format, x.New.Format = "OLD", "NEW", "x", "x"
	}
	a, b := render(t, r), render(t, fromImg)
	for _, f := range Formats {
		if a[f] != b[f] {
			t.Errorf("%s: package and image reports differ:\n%s\n---\n%s", f, a[f], b[f])
		}
	}
}
