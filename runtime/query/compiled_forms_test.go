package query

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// TestCompiledFormsAreTheEmbeddedJSON: the profile and manifest the server
// reads in place (compiled at build time) are exactly what the embedded
// profile_json and manifest_json decode to, the progression summary is there
// exactly when the manifest declares progressions, and requests that resolve
// names through the compiled profile (grade labels and aliases, statement
// types, subjects, in other cases and spacing, on both search tools) find
// what they name and nothing for names the profile does not have.
func TestCompiledFormsAreTheEmbeddedJSON(t *testing.T) {
	t.Parallel()
	cat := imgtest.Catalog(t, imgtest.Images(t, nil, nil))
	svc := New(cat, Options{})
	ctx := context.Background()
	calls := 0
	for _, p := range cat.Packages {
		want, _, fs := profile.Decode(p.Img.ProfileJSON(), profile.FileName)
		if len(fs) > 0 {
			t.Fatal(fs)
		}
		if !reflect.DeepEqual(p.Profile(), want) {
			t.Fatalf("%s: the served profile is not the embedded one", p.FrameworkID())
		}
		if m, fs := manifest.Decode(p.Img.ManifestJSON()); len(fs) > 0 || !reflect.DeepEqual(p.Manifest, m) {
			t.Fatalf("%s: the served manifest is not the embedded one", p.FrameworkID())
		}
		if (p.Progressions != nil) != p.Manifest.Capabilities.HasLearningProgressions {
			t.Fatalf("%s: a progression summary is %v, the manifest declares progressions %v", p.FrameworkID(), p.Progressions != nil, p.Manifest.Capabilities.HasLearningProgressions)
		}
		for _, req := range profileRequests(p) {
			out, err := svc.Call(ctx, req.tool, json.RawMessage(req.args))
			got := encodeResult(t, out, err)
			switch {
			case err != nil && req.wantHits:
				t.Errorf("%s %s: %v", req.tool, req.args, err)
			case err != nil: // a name the profile does not have may be refused
			case strings.Contains(got, `"nodeId"`) != req.wantHits:
				t.Errorf("%s %s: found something %v, want %v: %.400s", req.tool, req.args, !req.wantHits, req.wantHits, got)
			}
			calls++
		}
	}
	if calls < 10 {
		t.Fatalf("only %d requests", calls)
	}
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
