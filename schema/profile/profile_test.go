package profile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kgc-project/kgc/internal/corpus"
	"github.com/kgc-project/kgc/schema/finding"
)

func shippedProfile(t *testing.T) map[string]any {
	t.Helper()
	ps, _ := filepath.Glob("../../profiles/kgc-sample-mathematics-grades-1-3/*/profile.json")
	if len(ps) == 0 {
		t.Fatal("shipped mathematics profile not found")
	}
	b, err := os.ReadFile(ps[0])
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func decodeDoc(t *testing.T, doc map[string]any) []finding.Finding {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	_, _, fs := Decode(b, "p/1.0/profile.json")
	return fs
}

func hasCode(fs []finding.Finding, c finding.Code) bool {
	for _, f := range fs {
		if f.Code == c {
			return true
		}
	}
	return false
}

func TestShippedProfilesAreValid(t *testing.T) {
	ps, _ := filepath.Glob("../../profiles/*/*/profile.json")
	if len(ps) < 2 {
		t.Fatalf("found %d shipped profiles", len(ps))
	}
	for _, p := range ps {
		b, _ := os.ReadFile(p)
		if _, _, fs := Decode(b, p); len(fs) != 0 {
			t.Errorf("%s: %v", p, fs)
		}
	}
}

// TestCorpusProfilesAreValid decodes the 12 real profiles (Python-flavoured
// regexes with lookahead included).
func TestCorpusProfilesAreValid(t *testing.T) {
	dir := filepath.Join(corpus.Dir(), "profiles")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIP: needs the real corpus at %s", dir)
	}
	ps, _ := filepath.Glob(filepath.Join(dir, "*", "*", "profile.json"))
	if len(ps) != 12 {
		t.Fatalf("found %d corpus profiles, want 12", len(ps))
	}
	for _, p := range ps {
		b, _ := os.ReadFile(p)
		prof, c, fs := Decode(b, p)
		if len(fs) != 0 || prof == nil {
			t.Errorf("%s: %v", p, fs)
			continue
		}
		for _, ct := range prof.CodeSearchPolicy.CodeTypes {
			if len(c.Patterns[ct.CodeType]) != len(ct.Patterns) {
				t.Errorf("%s: code type %s compiled %d of %d patterns", p, ct.CodeType, len(c.Patterns[ct.CodeType]), len(ct.Patterns))
			}
		}
	}
}

func TestPythonRegexes(t *testing.T) {
	// From the Ghana mathematics profile: negative lookahead, \b, \s, \d.
	re, err := CompileRegex(`\bB\s*[456]\s*\.\s*\d+\s*\.\s*\d+\s*\.\s*\d+(?!\s*\.\s*\d)\b`)
	if err != nil {
		t.Fatal(err)
	}
	for code, want := range map[string]bool{"B5.2.3.1": true, "B5.2.3.1.3": false, "B4 . 1 . 1 . 2": true} {
		if got, err := re.FullMatch(code); err != nil || got != want {
			t.Errorf("FullMatch(%q) = %v, %v; want %v", code, got, err, want)
		}
	}
	rule, err := CompileRegex(`^\s*(B\s*[456]\s*\.\s*\d+\s*\.\s*\d+\s*\.\s*\d+)\s*\.\s*\d+\s*\.?\s*$`)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := rule.Substitute("B5.2.3.1.3", `\1`); err != nil || got != "B5.2.3.1" {
		t.Errorf("Substitute = %q, %v", got, err)
	}
	if got, err := pythonReplacement(`\g<1>-$\2`); err != nil || got != "${1}-$$${2}" {
		t.Errorf("PythonReplacement = %q, %v", got, err)
	}
}

func TestProfileProblemsAreFindings(t *testing.T) {
	cases := []struct {
		name string
		edit func(p map[string]any)
		want finding.Code
	}{
		{"unsupported schema", func(p map[string]any) { p["profileSchemaVersion"] = "9.0" }, finding.ProfileVersionUnsupported},
		{"bad regex", func(p map[string]any) {
			ct := p["codeSearchPolicy"].(map[string]any)["codeTypes"].([]any)[0].(map[string]any)
			ct["patterns"] = []any{"([unclosed"}
		}, finding.ProfileRegexInvalid},
		{"unknown root type", func(p map[string]any) {
			p["hierarchy"].(map[string]any)["rootStatementTypes"] = []any{"Galaxy"}
		}, finding.ProfileReferenceInvalid},
		{"grade alias collision", func(p map[string]any) {
			gm := p["gradeMappings"].([]any)
			gm[1].(map[string]any)["aliases"] = []any{"grade one"}
		}, finding.ProfileDuplicateValue},
		{"prefix search without delimiter", func(p map[string]any) {
			p["codeSearchPolicy"].(map[string]any)["prefixDelimiters"] = []any{}
		}, finding.ProfilePolicyInconsistent},
		{"no code types with availability none", func(p map[string]any) {
			p["codeSearchPolicy"].(map[string]any)["availability"] = "none"
		}, finding.ProfilePolicyInconsistent},
		{"two required parents without multi-parent", func(p map[string]any) {
			st := p["statementTypes"].([]any)[3].(map[string]any)
			st["allowedParents"] = append(st["allowedParents"].([]any), map[string]any{"parentStatementType": "Strand", "minCount": 1, "maxCount": 1})
		}, finding.ProfilePolicyInconsistent},
		{"unknown field", func(p map[string]any) { p["surprise"] = 1 }, finding.SchemaUnknown},
		{"unmatched vocabulary", func(p map[string]any) { p["normalizedSubjects"] = []any{"Astrology"} }, finding.ProfileReferenceInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := shippedProfile(t)
			c.edit(doc)
			fs := decodeDoc(t, doc)
			if !hasCode(fs, c.want) {
				t.Errorf("want %s, got %v", c.want, fs)
			}
		})
	}
}

func TestNormalizeCode(t *testing.T) {
	cp := CodeSearchPolicy{WhitespaceNormalization: true, PunctuationNormalization: true, PrefixDelimiters: []string{"."}}
	for in, want := range map[string]string{"B5 . 2.3": "b5.2.3", "Ｂ５.２": "b5.2", "B5-2.3": "b52.3", "--": ""} {
		if got := NormalizeCode(cp, in); got != want {
			t.Errorf("NormalizeCode(%q) = %q, want %q", in, got, want)
		}
	}
	if got := NormalizeCode(CodeSearchPolicy{CaseSensitive: true}, "AbC"); got != "AbC" {
		t.Errorf("case-sensitive: %q", got)
	}
}

// TestEncodeRoundTrips: every profile the project ships and, where present,
// every corpus profile decodes to the same Profile after Encode, with no
// finding.
func TestEncodeRoundTrips(t *testing.T) {
	files, _ := filepath.Glob("../../profiles/*/*/profile.json")
	files = append(files, must(filepath.Glob("../../examples/*/profiles/*/*/profile.json"))...)
	if corpus.Present() {
		files = append(files, must(filepath.Glob(filepath.Join(corpus.Dir(), "profiles/*/*/profile.json")))...)
	} else {
		t.Log("SKIP (corpus part): ../shared/corpus is absent; only the project's own profiles are round-tripped")
	}
	if len(files) < 3 {
		t.Fatalf("only %d profiles found", len(files))
	}
	unbounded := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, _, fs := Decode(data, FileName)
		if p == nil || len(fs) > 0 {
			t.Fatalf("%s: %v", f, fs)
		}
		out, err := Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		q, _, fs := Decode(out, FileName)
		if q == nil || len(fs) > 0 {
			t.Fatalf("%s encoded does not decode: %v\n%s", f, fs, out)
		}
		if !reflect.DeepEqual(p, q) {
			t.Errorf("%s: the encoded profile decodes to another profile", f)
		}
		for _, st := range p.StatementTypes {
			for _, ap := range st.AllowedParents {
				if ap.MaxCount < 0 {
					unbounded++
				}
			}
		}
	}
	t.Logf("%d profiles round-tripped (%d unbounded parent counts)", len(files), unbounded)
}

func must[T any](v T, _ error) T { return v }
