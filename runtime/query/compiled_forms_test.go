package query

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/kgc-project/kgc/kgimg/kgimgwrite"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// TestCompiledFormsAnswerLikeTheirJSON builds the shipped packages twice,
// with the compiled profile, manifest and progression summary and without them
// (as images written before they existed, whose profile_json, manifest_json and
// progression_summary the server decodes at open), and requires the same
// profile, manifest and summary and byte-identical
// answers to requests that resolve names through the profile: grade labels
// and aliases, statement types, subjects, in other cases and spacing, on both
// search tools.
func TestCompiledFormsAnswerLikeTheirJSON(t *testing.T) {
	t.Parallel()
	compiled, legacy := t.TempDir(), t.TempDir()
	for i, spec := range pkggen.Shipped() {
		f := pkgtest.Write(t, spec)
		for _, c := range []struct {
			dir  string
			opts kgimgwrite.Options
		}{{compiled, kgimgwrite.Options{Compiler: "kgc test"}}, {legacy, kgimgwrite.Options{Compiler: "kgc test", WithoutCompiledForms: true}}} {
			data, _, err := imgtest.CompileWith(f.Dir, f.Profiles, "", c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(c.dir, string(rune('a'+i))+".kgimg"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	a, b := imgtest.Catalog(t, compiled), imgtest.Catalog(t, legacy)
	_, aProfile := a.Packages[0].Img.CompiledProfile()
	_, bProfile := b.Packages[0].Img.CompiledProfile()
	_, aManifest := a.Packages[0].Img.CompiledManifest()
	_, bManifest := b.Packages[0].Img.CompiledManifest()
	if !aProfile || bProfile || !aManifest || bManifest {
		t.Fatal("the two catalogs do not differ in the compiled forms")
	}
	ctx := context.Background()
	sa, sb := New(a, Options{}), New(b, Options{})
	calls := 0
	for i, p := range a.Packages {
		want, _, fs := profile.Decode(p.Img.ProfileJSON(), profile.FileName)
		if len(fs) > 0 {
			t.Fatal(fs)
		}
		if !reflect.DeepEqual(p.Profile(), want) || !reflect.DeepEqual(b.Packages[i].Profile(), want) {
			t.Fatalf("%s: the served profile is not the embedded one", p.FrameworkID())
		}
		if m, fs := manifest.Decode(p.Img.ManifestJSON()); len(fs) > 0 || !reflect.DeepEqual(p.Manifest, m) || !reflect.DeepEqual(b.Packages[i].Manifest, m) {
			t.Fatalf("%s: the served manifest is not the embedded one", p.FrameworkID())
		}
		if lp := p.Progressions; lp == nil && p.Manifest.Capabilities.HasLearningProgressions || !reflect.DeepEqual(lp, b.Packages[i].Progressions) {
			t.Fatalf("%s: the compiled progression summary is not the one progression_summary holds", p.FrameworkID())
		}
		for _, req := range profileRequests(p) {
			ra, erra := sa.Call(ctx, req.tool, json.RawMessage(req.args))
			rb, errb := sb.Call(ctx, req.tool, json.RawMessage(req.args))
			ja, jb := encodeResult(t, ra, erra), encodeResult(t, rb, errb)
			if ja != jb {
				t.Errorf("%s %s:\ncompiled profile: %.400s\nprofile_json:     %.400s", req.tool, req.args, ja, jb)
			}
			if req.wantHits && !strings.Contains(ja, `"nodeId"`) {
				t.Errorf("%s %s found nothing: %.400s", req.tool, req.args, ja)
			}
			calls++
		}
	}
	t.Logf("%d requests answered alike", calls)
}

type profileRequest struct {
	tool, args string
	wantHits   bool
}

// profileRequests names the package's first grade mapping (by an alias when
// it has one), statement type, subject and normalized grade the way a user
// might type them.
func profileRequests(p *catalog.Package) []profileRequest {
	prof := p.Profile()
	gm := prof.GradeMappings[len(prof.GradeMappings)-1]
	grade := gm.LocalLabel
	if len(gm.Aliases) > 0 {
		grade = gm.Aliases[0]
	}
	var standardType string
	for _, st := range prof.StatementTypes {
		if st.NormalizedStatementType == profile.NormalizedStandard {
			standardType = st.SourceStatementType
		}
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	scope := `"frameworkId":` + q(p.FrameworkID())
	search := func(filters string) string {
		return `{"request":{"frameworkIds":[` + q(p.FrameworkID()) + `],"mode":"text","query":"the read words number count","match":{"matchMode":"tokens","operator":"any"},"limit":50` + filters + `}}`
	}
	out := []profileRequest{
		{"search_standards", search(`,"localGradeLabels":[` + q(" "+strings.ToUpper(grade)+" ") + `]`), true},
		{"search_standards", search(`,"statementTypes":[` + q(strings.ToLower(standardType)) + `]`), true},
		{"search_standards", search(`,"normalizedSubjects":[` + q(strings.ToUpper(prof.NormalizedSubjects[0])) + `]`), true},
		{"search_standards", search(`,"normalizedSubjects":["no such subject"]`), false},
		{"search_standards", search(`,"localGradeLabels":["no such grade"]`), false},
	}
	if p.Manifest.Capabilities.HasLearningProgressions {
		lp := func(filters string) string { return `{"request":{` + scope + `,"limit":50` + filters + `}}` }
		out = append(out,
			profileRequest{"search_learning_progressions", lp(`,"localGradeLabels":[` + q(strings.ToLower(grade)) + `]`), true},
			profileRequest{"search_learning_progressions", lp(`,"normalizedGrades":[` + q(gm.NormalizedGrades[0]) + `]`), true},
			profileRequest{"search_learning_progressions", lp(`,"statementTypes":[` + q(strings.ToUpper(standardType)) + `]`), true},
			profileRequest{"search_learning_progressions", lp(`,"localGradeLabels":["no such grade"]`), false},
		)
	}
	return out
}

// encodeResult is a call's answer or error as canonical JSON.
func encodeResult(t *testing.T, out any, err error) string {
	t.Helper()
	if err != nil {
		return "error: " + err.Error()
	}
	if p, ok := out.(*Paged); ok {
		out = p.Result
	}
	b, err := canonjson.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
