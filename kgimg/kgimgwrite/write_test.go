package kgimgwrite_test

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/schema/manifest"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/natural"
	"github.com/kgc-project/kgc/internal/pkgtest"
	"github.com/kgc-project/kgc/kgimg/kgimgwrite"
)

// copyShuffled copies the package tree into dst creating files and directories in
// a random order, so the directory enumeration order differs from the source's.
func copyShuffled(t *testing.T, src, dst string, seed uint64) {
	var files []string
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(src, p)
			files = append(files, rel)
		}
		return err
	})
	r := rand.New(rand.NewPCG(seed, seed))
	r.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBuildIsByteIdentical(t *testing.T) {
	f := pkgtest.Sample(t, "kgc-sample-mathematics-grades-1-3")
	first, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
	second, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
	if !bytes.Equal(first, second) {
		t.Fatal("two builds of the same package differ")
	}
	for _, seed := range []uint64{1, 2} {
		root := t.TempDir()
		dir := filepath.Join(root, filepath.Base(filepath.Dir(f.Dir)), f.Snapshot)
		copyShuffled(t, f.Dir, dir, seed)
		again, _ := imgtest.Build(t, dir, f.Profiles, "")
		if !bytes.Equal(first, again) {
			t.Fatalf("a build from a copy made in shuffled order (seed %d) differs", seed)
		}
	}
}

func TestCorpusBuildsAreByteIdentical(t *testing.T) {
	dirs, profiles, prompts := imgtest.CorpusPackages(t)
	for _, dir := range dirs {
		a, _ := imgtest.Build(t, dir, profiles, prompts)
		b, _ := imgtest.Build(t, dir, profiles, prompts)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two builds differ", filepath.Base(dir))
		}
	}
}

// A staged image is only a temp file until it is committed; an aborted one
// leaves nothing, and the old image stays in place meanwhile.
func TestStagedImage(t *testing.T) {
	dir := t.TempDir()
	p, err := kgimgwrite.WriteFile(dir, "a.kgimg", []byte("one"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := kgimgwrite.Stage(dir, "a.kgimg", []byte("two"))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Fatalf("staging replaced the image: %q", b)
	}
	st.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("an aborted image left %v", entries)
	}
	if st, err = kgimgwrite.Stage(dir, "a.kgimg", []byte("three")); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Commit(); err != nil || got != p {
		t.Fatalf("Commit() = %q, %v", got, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "three" {
		t.Fatalf("content %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("leftovers: %v", entries)
	}
	// Directories staging created are removed with an aborted image; one
	// that existed stays.
	deep := filepath.Join(dir, "x", "y", "z")
	if st, err = kgimgwrite.Stage(deep, "b.kgimg", []byte("four")); err != nil {
		t.Fatal(err)
	}
	st.Abort()
	if _, err := os.Stat(filepath.Join(dir, "x")); !os.IsNotExist(err) {
		t.Errorf("an aborted image left its new directories: %v", err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("the existing directory went: %v", err)
	}
}

func TestWriteFileIsAtomic(t *testing.T) {
	dir := t.TempDir()
	p, err := kgimgwrite.WriteFile(dir, "a.kgimg", []byte("one"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kgimgwrite.WriteFile(dir, "a.kgimg", []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Fatalf("content %q", b)
	}
	// A destination that cannot be written leaves nothing behind.
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o644)
	if _, err := kgimgwrite.WriteFile(filepath.Join(blocker, "sub"), "b.kgimg", []byte("x")); err == nil {
		t.Fatal("writing under a file succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("leftovers: %v", entries)
	}
}

// TestPresenceBitsMatchDelivery keeps the image's presence-bit constants in
// step with the delivery property order the writer uses.
func TestPresenceBitsMatchDelivery(t *testing.T) {
	nodes := map[uint]delivery.NodeProp{
		kgimg.PAcademicSubject: delivery.NAcademicSubject, kgimg.PCaseIdentifierUUID: delivery.NCaseIdentifierUUID,
		kgimg.PGradeLevel: delivery.NGradeLevel, kgimg.PIdentifier: delivery.NIdentifier, kgimg.PIsCurrent: delivery.NIsCurrent,
		kgimg.PStatementType: delivery.NStatementType, kgimg.PTags: delivery.NTags,
	}
	for k, v := range nodes {
		if k != uint(v) {
			t.Errorf("node presence bit %d != delivery property %d", k, v)
		}
	}
	if kgimg.PListEnumeration != uint(delivery.NumNodeProps)-1 || kgimg.RPSequenceNumber != uint(delivery.NumRelProps)-1 ||
		kgimg.PTags != uint(delivery.NTags) || kgimg.RPTargetEntityValue != uint(delivery.RTargetEntityValue) ||
		kgimg.RPSupportConfidence != uint(delivery.RSupportConfidence) || kgimg.RPResolutionStatus != uint(delivery.RResolutionStatus) {
		t.Error("presence bit order differs from the delivery property order")
	}
}

// TestArtifactsAreCheckedAgainWhereEmbedded: an artifact the image embeds is
// read and hashed again, and bytes changed since validation are refused; one
// it does not embed is recorded as the gate measured it, without being read
// (its content reached the image only through the validated records); and a
// gate result that carries no sizes gets every artifact read, to the same
// image bytes.
func TestArtifactsAreCheckedAgainWhereEmbedded(t *testing.T) {
	f := pkgtest.Sample(t, "kgc-sample-mathematics-grades-1-3")
	want, res := imgtest.Build(t, f.Dir, f.Profiles, "")
	read := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(f.Dir, p)) }
	var embedded, recorded string
	for _, a := range res.Manifest.Artifacts {
		class, _ := manifest.ExposureOf(a.Name, a.Path)
		if manifest.Allows(res.Manifest.Rights, class) {
			embedded = a.Path
		} else {
			recorded = a.Path
		}
	}
	if embedded == "" || recorded == "" {
		t.Fatalf("the sample has no embedded (%q) or no recorded-only (%q) artifact", embedded, recorded)
	}
	unread := func(p string) ([]byte, error) {
		if p == recorded {
			t.Errorf("%s was read, though the image does not embed it", p)
		}
		return read(p)
	}
	if got, err := kgimgwrite.Build(res, unread, kgimgwrite.Options{Compiler: "kgc test"}); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("build: %v (equal %v)", err, bytes.Equal(got, want))
	}
	changed := func(p string) ([]byte, error) {
		b, err := read(p)
		if p == embedded {
			b = append(b, ' ')
		}
		return b, err
	}
	if _, err := kgimgwrite.Build(res, changed, kgimgwrite.Options{Compiler: "kgc test"}); err == nil || !strings.Contains(err.Error(), "changed since validation") {
		t.Fatalf("an embedded artifact changed since validation: %v", err)
	}
	res.ArtifactSizes = nil
	if got, err := kgimgwrite.Build(res, read, kgimgwrite.Options{Compiler: "kgc test"}); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("build without measured sizes: %v (equal %v)", err, bytes.Equal(got, want))
	}
}

// TestCurriculumPositions: the root comes first, then the standards depth
// first with each parent's children in curriculum order, then the learning
// components in export order. In the mathematics sample the grades are
// ordered by grade, the uncoded strands by the codes beneath them and the
// standards by code, so the coded standards come in natural code order:
// M1.1.1, M1.1.1.1, …, M1.1.2, …, M3.3.3.3.
func TestCurriculumPositions(t *testing.T) {
	f := pkgtest.Sample(t, "kgc-sample-mathematics-grades-1-3")
	data, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
	img, err := kgimg.OpenBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	byPos := make([]uint32, img.NodeCount())
	for n := range uint32(img.NodeCount()) {
		byPos[img.CurriculumPosition(n)] = n
	}
	if byPos[0] != img.RootNode() {
		t.Fatalf("position 0 is node %d, not the root", byPos[0])
	}
	var codes []string
	lastComponent, seenComponent, uncoded := uint32(0), false, 0
	for _, n := range byPos[1:] {
		switch img.NodeKind(n) {
		case kgimg.ItemNode:
			if seenComponent {
				t.Fatalf("standard %s after a learning component", img.NodeString(n, kgimg.NodeID))
			}
			if c := img.NodeString(n, kgimg.NodeStatementCode); c != "" {
				codes = append(codes, c)
			} else {
				uncoded++
			}
		case kgimg.ComponentNode:
			if seenComponent && img.NodeOrder(n) < lastComponent {
				t.Fatalf("learning components out of export order")
			}
			seenComponent, lastComponent = true, img.NodeOrder(n)
		}
	}
	sorted := slices.Clone(codes)
	slices.SortFunc(sorted, natural.Compare)
	if !slices.Equal(codes, sorted) || len(codes) == 0 || codes[0] != "M1.1.1" || codes[len(codes)-1] != "M3.3.3.3" {
		t.Errorf("standards in curriculum order: %.200s …", strings.Join(codes, " "))
	}
	if uncoded != 3+9 { // three grades, three strands each
		t.Errorf("%d uncoded items, want 12 (grades and strands)", uncoded)
	}
	root := img.RootNode()
	if b := img.ChildOrder(root); b != kgimg.OrderGrade {
		t.Errorf("the grades are ordered by %s, want Grade", b)
	}
	grades, _ := img.Adjacency(kgimg.HasChild, kgimg.Out).Row(root)
	if b := img.ChildOrder(grades.At(0)); b != kgimg.OrderCodesBelow {
		t.Errorf("a grade's strands are ordered by %s, want CodesBelow", b)
	}
}
