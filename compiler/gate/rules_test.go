package gate_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/kgc-project/kgc/schema/finding"
)

// Rule tests: one case per finding code of schema/finding's registry. Each case
// copies a shipped sample package (generated once per run, as pkgtest.Sample
// does, then copied; pkgtest.Fixture's helpers edit the copy), mutates it as
// little as the rule allows, re-seals the checksums, runs gate.Run and checks that the gate
// reports exactly the wanted codes, each with its registered severity and
// stage, and that one finding of the rule under test (want[0]) sits exactly at
// the expected location (artifact, path, line, record, field; zero values mean
// the gate leaves that field empty). The case tables live in rules_*_test.go;
// the helpers in helpers_test.go. TestEveryRuleIsCovered fails when a registry
// code has neither a case nor an allowlist entry.

const (
	english   = "kgc-sample-english-grades-1-2"
	maths     = "kgc-sample-mathematics-grades-1-3"
	manifestF = "package_manifest.json"
	nodesF    = "delivery/nodes.jsonl"
	relsF     = "delivery/relationships.jsonl"
	reportF   = "detailed/as_lc_validation_report.json"
)

// loc is where a finding points.
type loc struct {
	artifact, path string
	line           int
	record, field  string
}

func (l loc) String() string {
	return fmt.Sprintf("{artifact:%q path:%q line:%d record:%q field:%q}", l.artifact, l.path, l.line, l.record, l.field)
}

func locOf(f finding.Finding) loc {
	return loc{artifact: f.Artifact, path: f.Path, line: f.Line, record: f.Record, field: f.Field}
}

// ruleCase is one row of a rule table.
type ruleCase struct {
	name string
	pkg  string // english or maths
	// want lists the codes the gate must report, no more and no fewer; want[0]
	// is the rule under test. Further codes are consequences the mutation
	// cannot avoid (each is explained in its case).
	want []finding.Code
	// stage is the stage want[0] is reported in: required for the generic
	// codes (registry stage "any"); for the others it defaults to the
	// registered stage, and a case that sets it documents a code the gate
	// reports in another stage than the registry's.
	stage finding.Stage
	// at is where one finding of want[0] points; mutate may fill it in
	// through p.at (fields it sets there override these).
	at     loc
	mutate func(p *pkg)
}

// allCases gathers the tables of every stage.
func allCases() []ruleCase {
	var all []ruleCase
	for _, table := range [][]ruleCase{discoveryCases(), manifestCases(), treeProfileCases(), reportDeliveryCases(),
		graphCases(), hierarchyCases(), progressionCases(), reconcilePromptCases(), publisherCases()} {
		all = append(all, table...)
	}
	return all
}

// notFromPackages lists the registry codes no package mutation reaches, with the
// reason. A code here must not also have a case.
var notFromPackages = map[finding.Code]string{
	finding.NodeFieldInvalid: "registered and documented, but no code in the module raises it (dead code: only schema/finding/registry.go names it)",
	finding.PathTreeTooLarge: "needs more than 100,000 files and directories in one package (gate.MaxTreeEntries); too slow to build in a unit test run under -race",
}

func TestEveryRuleIsCovered(t *testing.T) {
	covered := map[finding.Code][]string{}
	names := map[string]bool{}
	for _, c := range allCases() {
		if len(c.want) == 0 {
			t.Errorf("case %q wants no code", c.name)
			continue
		}
		if names[c.name] {
			t.Errorf("two cases are named %q", c.name)
		}
		names[c.name] = true
		for _, code := range c.want {
			if !finding.Registered(code) {
				t.Errorf("case %q wants unregistered code %s", c.name, code)
			}
		}
		covered[c.want[0]] = append(covered[c.want[0]], c.name)
	}
	var missing []string
	for _, r := range finding.Rules {
		_, allowed := notFromPackages[r.Code]
		switch {
		case allowed && len(covered[r.Code]) > 0:
			t.Errorf("%s is allowlisted but has cases %v: drop the allowlist entry", r.Code, covered[r.Code])
		case !allowed && len(covered[r.Code]) == 0:
			missing = append(missing, string(r.Code))
		}
	}
	for code := range notFromPackages {
		if !finding.Registered(code) {
			t.Errorf("allowlisted code %s is not in the registry", code)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Errorf("registry codes with neither a rule case nor a notFromPackages entry: %v", missing)
	}
	t.Logf("%d rules: %d with cases (%d cases), %d allowlisted", len(finding.Rules), len(covered), len(names), len(notFromPackages))
}

func TestRules(t *testing.T) {
	// Each case runs the whole gate over a mutated package: exhaustive
	// mutation, heavy under -race (TestCleanSamples keeps the gate's own
	// goroutines under the detector).
	imgtest.Heavy(t)
	for _, c := range allCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t)
		})
	}
}

// TestChecksAlongside runs every rule case's package through the gate as it
// runs (some checks beside others) and with every check one after the
// other, and compares the findings kept, in order, and their counts.
func TestChecksAlongside(t *testing.T) {
	imgtest.Heavy(t)
	for _, c := range allCases() {
		t.Run(c.name, func(t *testing.T) {
			p := newPkg(t, c.pkg)
			p.want = c.at
			c.mutate(p)
			p.seal()
			run := func(oneByOne bool) (*gate.Result, string) {
				gate.SetOneByOne(oneByOne)
				defer gate.SetOneByOne(false)
				res, err := gate.Run(p.dir, p.opts)
				if err != nil {
					t.Fatalf("gate.Run: %v", err)
				}
				var b strings.Builder
				for _, f := range res.Findings.Items() {
					fmt.Fprintf(&b, "%s %s %s %v %s\n", f.Code, f.Severity, f.Stage, locOf(f), f.Message)
				}
				fmt.Fprintf(&b, "%d findings, %d errors, %v", res.Findings.Len(), res.Findings.Errors(), res.Findings.CountsByCode())
				return res, b.String()
			}
			_, alongside := run(false)
			_, oneByOne := run(true)
			if alongside != oneByOne {
				t.Errorf("checks alongside:\n%s\none by one:\n%s", alongside, oneByOne)
			}
		})
	}
}

// TestCleanSamples checks that every shipped sample passes with no finding at
// all, in full and in provisional mode.
func TestCleanSamples(t *testing.T) {
	for _, name := range []string{english, maths} {
		for _, provisional := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/provisional=%t", name, provisional), func(t *testing.T) {
				t.Parallel()
				f := pkgtest.Sample(t, name)
				res, err := gate.Run(f.Dir, gate.Options{ProfileRoot: f.Profiles, Provisional: provisional})
				if err != nil {
					t.Fatal(err)
				}
				if n := res.Findings.Len(); n != 0 || !res.Valid() {
					t.Fatalf("clean sample has %d findings: %+v", n, res.Findings.Items())
				}
				if res.Manifest == nil || res.Profile == nil || res.Prompts == nil || res.Observed == nil || len(res.Nodes) == 0 || len(res.Relationships) == 0 {
					t.Fatalf("clean sample not fully decoded: %+v", res)
				}
				if got, want := res.Observed.Counts, res.Manifest.Counts; got != want {
					t.Errorf("observed counts %+v, manifest %+v", got, want)
				}
			})
		}
	}
}

func (c ruleCase) run(t *testing.T) {
	p := newPkg(t, c.pkg)
	p.want = c.at
	c.mutate(p)
	p.seal()
	res, err := gate.Run(p.dir, p.opts)
	if err != nil {
		t.Fatalf("gate.Run: %v", err)
	}
	items := res.Findings.Items()
	defer func() {
		if t.Failed() {
			for _, f := range items {
				t.Logf("finding: %s %s %s %v %s", f.Code, f.Severity, f.Stage, locOf(f), f.Message)
			}
		}
	}()
	if res.Findings.Len() != len(items) {
		t.Fatalf("%d findings reported, %d kept", res.Findings.Len(), len(items))
	}
	got := map[finding.Code]int{}
	errs := 0
	for _, f := range items {
		got[f.Code]++
		r := finding.Lookup(f.Code)
		if f.Severity != r.Severity {
			t.Errorf("%s has severity %s, registry says %s", f.Code, f.Severity, r.Severity)
		}
		if f.Severity == finding.Error {
			errs++
		}
		wantStage := r.Stage
		if f.Code == c.want[0] && c.stage != "" {
			wantStage = c.stage
		}
		if wantStage == finding.StageAny {
			if f.Stage == "" || f.Stage == finding.StageAny {
				t.Errorf("generic %s reported without a real stage: %q", f.Code, f.Stage)
			}
		} else if f.Stage != wantStage {
			t.Errorf("%s reported in stage %s, want %s", f.Code, f.Stage, wantStage)
		}
		if f.Message == "" {
			t.Errorf("%s has no message", f.Code)
		}
	}
	if res.Valid() != (errs == 0) {
		t.Errorf("Valid() = %t with %d error findings", res.Valid(), errs)
	}
	want := map[finding.Code]bool{}
	for _, code := range c.want {
		want[code] = true
	}
	for code := range want {
		if got[code] == 0 {
			t.Errorf("no %s finding", code)
		}
	}
	for code := range got {
		if !want[code] {
			t.Errorf("unexpected %s finding", code)
		}
	}
	stage := c.stage
	if stage == "" {
		stage = finding.Lookup(c.want[0]).Stage
	}
	if stage == finding.StageAny {
		t.Fatalf("case %q must say which stage reports the generic code %s", c.name, c.want[0])
	}
	var seen []string
	for _, f := range items {
		if f.Code != c.want[0] {
			continue
		}
		if f.Stage == stage && locOf(f) == p.want {
			return
		}
		seen = append(seen, fmt.Sprintf("%s %v", f.Stage, locOf(f)))
	}
	t.Errorf("no %s finding in stage %s at %v; found at %v", c.want[0], stage, p.want, seen)
}

// The rule cases start from a copy of each sample, generated once per run
// (pkgtest.Sample generates it anew every time, which costs more than the gate
// run itself under -race).
var templates struct {
	sync.Mutex
	root string
	dirs map[string]*pkgtest.Fixture
}

func TestMain(m *testing.M) {
	code := m.Run()
	if templates.root != "" {
		os.RemoveAll(templates.root)
	}
	os.Exit(code)
}

// template returns the sample generated once for the run.
func template(t testing.TB, name string) *pkgtest.Fixture {
	templates.Lock()
	defer templates.Unlock()
	if f := templates.dirs[name]; f != nil {
		return f
	}
	if templates.root == "" {
		root, err := os.MkdirTemp("", "gate-rules-")
		if err != nil {
			t.Fatal(err)
		}
		templates.root, templates.dirs = root, map[string]*pkgtest.Fixture{}
	}
	for _, spec := range pkggen.Shipped() {
		if spec.FrameworkID != name {
			continue
		}
		root := filepath.Join(templates.root, name)
		pk, pr := filepath.Join(root, "packages"), filepath.Join(root, "profiles")
		for _, d := range []string{pk, pr} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		w, err := pkggen.Write(spec, pk, pr)
		if err != nil {
			t.Fatal(err)
		}
		f := &pkgtest.Fixture{Root: root, Dir: w.PackageDir, Profiles: pr, Snapshot: w.SnapshotID}
		templates.dirs[name] = f
		return f
	}
	t.Fatalf("no shipped sample %s", name)
	return nil
}

// sample copies the sample named name into a fresh temp dir.
func sample(t testing.TB, name string) *pkgtest.Fixture {
	tpl := template(t, name)
	root := t.TempDir()
	err := filepath.WalkDir(tpl.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(tpl.Root, p)
		dst := filepath.Join(root, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, b, 0o644)
		}
		return fmt.Errorf("unexpected %s in the template", p)
	})
	if err != nil {
		t.Fatal(err)
	}
	move := func(p string) string { rel, _ := filepath.Rel(tpl.Root, p); return filepath.Join(root, rel) }
	return &pkgtest.Fixture{Root: root, Dir: move(tpl.Dir), Profiles: move(tpl.Profiles), Snapshot: tpl.Snapshot}
}
