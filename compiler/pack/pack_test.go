package pack_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/compiler/pack"
	"github.com/kgc-project/kgc/internal/pkggen"
)

// generate writes a package with the project's generator into a temp dir and
// returns it with its profile root.
func generate(t *testing.T, spec pkggen.Spec) (*pkggen.Written, string) {
	t.Helper()
	root := t.TempDir()
	packages, profiles := filepath.Join(root, "packages"), filepath.Join(root, "profiles")
	os.MkdirAll(packages, 0o755)
	os.MkdirAll(profiles, 0o755)
	w, err := pkggen.Write(spec, packages, profiles)
	if err != nil {
		t.Fatal(err)
	}
	return w, profiles
}

// shipped writes the English sample with its profile and returns the spec
// that packs it into out.
func shipped(t *testing.T, out string) (*pack.Spec, string) {
	t.Helper()
	w, profiles := generate(t, pkggen.Shipped()[0])
	s, _ := specFor(t, w.PackageDir, out)
	return s, profiles
}

// tree lists every path under root with its bytes.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, _ := os.ReadFile(p)
		out[rel] = string(b)
		return nil
	})
	return out
}

// Same inputs, same package bytes; packing again is existing_identical; a dry
// run writes nothing; SOURCE_DATE_EPOCH sets createdAt.
func TestPackIsDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	s, profiles := shipped(t, a)
	env := func(k string) string {
		if k == "SOURCE_DATE_EPOCH" {
			return "1764547200"
		}
		return ""
	}
	r1, err := pack.Run(s, pack.Options{ProfileRoot: profiles, Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	s2 := *s
	s2.OutputRoot = b
	if _, err := pack.Run(&s2, pack.Options{ProfileRoot: profiles, Getenv: env}); err != nil {
		t.Fatal(err)
	}
	if ta, tb := tree(t, a), tree(t, b); !reflect.DeepEqual(ta, tb) || len(ta) == 0 {
		t.Error("two packs of the same inputs differ")
	}
	if got := readManifest(t, r1.PackageDir)["createdAt"]; got != "2025-12-01T00:00:00Z" {
		t.Errorf("createdAt %v from SOURCE_DATE_EPOCH", got)
	}
	before := tree(t, a)
	r3, err := pack.Run(s, pack.Options{ProfileRoot: profiles, Getenv: env})
	if err != nil || r3.Outcome != pack.ExistingIdentical || r3.SnapshotID != r1.SnapshotID {
		t.Errorf("packing again: %v %+v", err, r3)
	}
	if !reflect.DeepEqual(before, tree(t, a)) {
		t.Error("packing again changed the output root")
	}
	dry := t.TempDir()
	s4 := *s
	s4.OutputRoot = dry
	r4, err := pack.Run(&s4, pack.Options{ProfileRoot: profiles, Getenv: env, DryRun: true})
	if err != nil || r4.Outcome != pack.DryRun || r4.SnapshotID != r1.SnapshotID {
		t.Errorf("dry run: %v %+v", err, r4)
	}
	if got := tree(t, dry); len(got) != 0 {
		t.Errorf("a dry run wrote %v", got)
	}
}

// Bad input gets a clear error of the right kind and leaves the output root
// as it was.
func TestPackRefusals(t *testing.T) {
	out := t.TempDir()
	base, profiles := shipped(t, out)
	existing, err := pack.Run(base, pack.Options{ProfileRoot: profiles})
	if err != nil {
		t.Fatal(err)
	}
	brokenNodes := filepath.Join(t.TempDir(), "nodes.jsonl")
	b, _ := os.ReadFile(base.Nodes)
	os.WriteFile(brokenNodes, append(b, []byte("{not json\n")...), 0o644)
	stray := filepath.Join(t.TempDir(), "notes.json")
	os.WriteFile(stray, []byte("{}"), 0o644)
	usage, refused := "usage", "refused"
	cases := []struct {
		name   string
		change func(s *pack.Spec)
		opts   func(o *pack.Options)
		kind   string
		want   string
	}{
		{"missing nodes file", func(s *pack.Spec) { s.Nodes += ".missing" }, nil, usage, "no such file"},
		{"no version token", func(s *pack.Spec) { s.VersionToken = "" }, nil, usage, "versionToken is required"},
		{"bad version token", func(s *pack.Spec) { s.VersionToken = "Draft 1" }, nil, usage, "not a version token"},
		{"detailed root and artifacts", func(s *pack.Spec) { s.DetailedRoot = filepath.Dir(s.DetailedArtifacts[0]) }, nil, usage, "mutually exclusive"},
		{"unknown detailed basename", func(s *pack.Spec) { s.DetailedArtifacts = append(s.DetailedArtifacts, stray) }, nil, usage, "unknown basename"},
		{"built-in name as additional", func(s *pack.Spec) { s.AdditionalArtifacts = map[string]string{"nodes": stray} }, nil, usage, "built-in artifact name"},
		{"profile missing", func(s *pack.Spec) { s.ProfileVersion = "9.9" }, nil, usage, "profile"},
		{"profile does not bind", func(s *pack.Spec) { s.FrameworkID = "some-other-framework" }, nil, usage, "does not bind framework"},
		{"JSONL error", func(s *pack.Spec) { s.Nodes = brokenNodes }, nil, refused, "validation gate"},
		{"terminal package in the way (dry run)", nil, func(o *pack.Options) { o.DryRun = true }, refused, "terminal packages are never rewritten"},
	}
	// Make the existing package terminal for the last case only after the
	// others ran against a pending one.
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.HasPrefix(c.name, "terminal") {
				mp := filepath.Join(existing.PackageDir, "package_manifest.json")
				m, _ := os.ReadFile(mp)
				os.WriteFile(mp, []byte(strings.Replace(string(m), `"status": "pending"`, `"status": "passed", "validatedAt": "2026-12-01T00:00:00Z"`, 1)), 0o644)
			}
			s := *base
			s.DetailedArtifacts = append([]string(nil), base.DetailedArtifacts...)
			if c.change != nil {
				c.change(&s)
			}
			o := pack.Options{ProfileRoot: profiles}
			if c.opts != nil {
				c.opts(&o)
			}
			before := tree(t, out)
			_, err := pack.Run(&s, o)
			var ue *pack.UsageError
			var re *pack.RefusedError
			switch {
			case err == nil:
				t.Fatal("packed")
			case c.kind == usage && !errors.As(err, &ue), c.kind == refused && !errors.As(err, &re):
				t.Fatalf("%T %v, want a %s error", err, err, c.kind)
			case !strings.Contains(err.Error(), c.want):
				t.Errorf("error %q does not say %q", err, c.want)
			}
			if c.name == "JSONL error" && (re.Gate == nil || re.Gate.Findings.Errors() == 0) {
				t.Error("a gate refusal without its findings")
			}
			if !reflect.DeepEqual(before, tree(t, out)) {
				t.Error("the output root changed")
			}
		})
	}
}

// A framework directory that leads out of the output root is refused and
// nothing is written anywhere.
func TestPackStaysInsideTheOutputRoot(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	s, profiles := shipped(t, out)
	if err := os.Symlink(elsewhere, filepath.Join(out, pkggen.Shipped()[0].FrameworkID)); err != nil {
		t.Skip("no symlinks here")
	}
	var re *pack.RefusedError
	if _, err := pack.Run(s, pack.Options{ProfileRoot: profiles}); !errors.As(err, &re) || !strings.Contains(err.Error(), "outside") {
		t.Errorf("a symlinked framework directory: %v", err)
	}
	if got := tree(t, elsewhere); len(got) != 0 {
		t.Errorf("written outside the output root: %v", got)
	}
}

// A different package at the destination is never overwritten.
func TestPackNeverOverwrites(t *testing.T) {
	out := t.TempDir()
	s, profiles := shipped(t, out)
	r, err := pack.Run(s, pack.Options{ProfileRoot: profiles})
	if err != nil {
		t.Fatal(err)
	}
	extra := filepath.Join(r.PackageDir, "detailed", "mine.txt")
	os.WriteFile(extra, []byte("an operator's note"), 0o644)
	before := tree(t, out)
	var re *pack.RefusedError
	if _, err := pack.Run(s, pack.Options{ProfileRoot: profiles}); !errors.As(err, &re) || !strings.Contains(err.Error(), "different package") {
		t.Errorf("packing over a different package: %v", err)
	}
	if !reflect.DeepEqual(before, tree(t, out)) {
		t.Error("the output root changed")
	}
}

// Learning progressions prepared from their exports (the two edge files and
// the per-edge provenance) reproduce the generator's delivery relationships,
// split files, 64 shards and index byte for byte, and the package passes the
// gate with or without the final claims given. An edge without provenance,
// or prepared artifacts given as well, is refused.
func TestPackPreparesProgressions(t *testing.T) {
	w, profiles := generate(t, pkggen.Shipped()[1])
	dir := w.PackageDir
	base, _ := specFor(t, dir, "")
	// The standards and components records alone: what a team exports before
	// its progressions are prepared.
	rels, _ := os.ReadFile(base.Relationships)
	var prefix []string
	for _, l := range strings.SplitAfter(string(rels), "\n") {
		if l != "" && !strings.Contains(l, `"label":"buildsTowards"`) && !strings.Contains(l, `"label":"relatesTo"`) {
			prefix = append(prefix, l)
		}
	}
	exportDir := t.TempDir()
	base.Relationships = filepath.Join(exportDir, "relationships.jsonl")
	os.WriteFile(base.Relationships, []byte(strings.Join(prefix, "")), 0o644)
	var kept []string
	for _, d := range base.DetailedArtifacts {
		if !strings.Contains(filepath.Base(d), "lp_") {
			kept = append(kept, d)
		}
	}
	base.DetailedArtifacts, base.AdditionalArtifacts = kept, nil
	lp := &pack.Progressions{BuildsTowards: filepath.Join(dir, "detailed", "lp_relationships_builds_towards.jsonl"),
		RelatesTo: filepath.Join(dir, "detailed", "lp_relationships_relates_to.jsonl"), Provenance: filepath.Join(dir, "detailed", "lp_relationship_provenance.json")}

	for _, withClaims := range []bool{true, false} {
		s := *base
		s.OutputRoot = t.TempDir()
		l := *lp
		if withClaims {
			l.FinalClaims = filepath.Join(dir, "detailed", "lp_final_claims.json")
		}
		s.Progressions = &l
		res, err := pack.Run(&s, pack.Options{ProfileRoot: profiles})
		if err != nil {
			t.Fatalf("final claims given %t: %v", withClaims, err)
		}
		proven(t, res.PackageDir, profiles)
		same := []string{"delivery/relationships.jsonl:delivery/relationships.jsonl", "detailed/lp_relationships_builds_towards.jsonl:",
			"detailed/lp_relationships_relates_to.jsonl:", "detailed/lp_relationship_provenance.json:"}
		if withClaims {
			same = append(same, "detailed/lp_relationship_provenance_index.json:", "detailed/lp_final_claims.json:")
			for k := 0; k < 64; k++ {
				same = append(same, fmt.Sprintf("additional/lp_relationship_provenance_shard_%02d.json:", k))
			}
		}
		for _, pair := range same {
			got, want, _ := strings.Cut(pair, ":")
			if want == "" {
				want = got
			}
			a, _ := os.ReadFile(filepath.Join(res.PackageDir, got))
			b, _ := os.ReadFile(filepath.Join(dir, want))
			if len(a) == 0 || string(a) != string(b) {
				t.Errorf("final claims given %t: %s differs from the generator's %s", withClaims, got, want)
			}
		}
	}

	var ue *pack.UsageError
	s := *base
	s.OutputRoot = t.TempDir()
	s.Progressions = lp
	s.DetailedArtifacts = append(append([]string(nil), kept...), filepath.Join(dir, "detailed", "lp_final_claims.json"))
	if _, err := pack.Run(&s, pack.Options{ProfileRoot: profiles}); !errors.As(err, &ue) || !strings.Contains(err.Error(), "not both") {
		t.Errorf("prepared artifacts and exports together: %v", err)
	}
	var prov map[string]json.RawMessage
	b, _ := os.ReadFile(lp.Provenance)
	json.Unmarshal(b, &prov)
	for id := range prov {
		delete(prov, id)
		break
	}
	short := filepath.Join(t.TempDir(), "provenance.json")
	b, _ = json.Marshal(prov)
	os.WriteFile(short, b, 0o644)
	s = *base
	s.OutputRoot = t.TempDir()
	l := *lp
	l.Provenance = short
	s.Progressions = &l
	if _, err := pack.Run(&s, pack.Options{ProfileRoot: profiles}); !errors.As(err, &ue) || !strings.Contains(err.Error(), "1 edges have no record") {
		t.Errorf("an edge without provenance: %v", err)
	}
	if entries, _ := os.ReadDir(s.OutputRoot); len(entries) != 0 {
		t.Errorf("a refused pack left %v", entries)
	}
}
