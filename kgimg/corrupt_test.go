package kgimg_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/internal/pkggen"
	"github.com/kgc-project/kgc/internal/pkgtest"
	. "github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/kgimg/format"
)

// tinySpec is the smallest package with every kind of record: one grade, one
// strand, one standard with three indicators, components and progressions.
func tinySpec() pkggen.Spec {
	return pkggen.Spec{
		FrameworkID: "kgc-tiny-fixture", VersionToken: "test", Name: "Tiny fixture", Subject: "Mathematics",
		Jurisdiction: "Testland", Authority: "kgc tests", GradeLabels: []string{"GRADE ONE", "GRADE TWO"},
		Strands: 1, Standards: 1, Indicators: 3, Codes: true, CodePrefix: "T", Components: true, Progressions: true,
		Compact: true, Topics: []string{"counting"}, Verbs: []string{"Count"},
	}
}

func tinyImage(t testing.TB) []byte {
	f := pkgtest.Write(t, tinySpec())
	data, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
	return data
}

// smallestImage is a standards-only package (no 64-shard manifest), so that every
// bit of it can be flipped quickly.
func smallestImage(t testing.TB) []byte {
	spec := tinySpec()
	spec.GradeLabels, spec.Components, spec.Progressions, spec.Indicators = spec.GradeLabels[:1], false, false, 2
	f := pkgtest.Write(t, spec)
	data, _ := imgtest.Build(t, f.Dir, f.Profiles, "")
	return data
}

// mustRefuse opens b and requires a typed error, never a panic or success.
func mustRefuse(t *testing.T, b []byte, what string) error {
	t.Helper()
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s: Open panicked: %v", what, r)
			}
		}()
		var img *Image
		img, err = OpenBytes(b)
		if err == nil {
			img.Close()
		}
	}()
	if err == nil {
		t.Fatalf("%s: a damaged image was accepted", what)
	}
	if !errors.Is(err, ErrNotImage) && !errors.Is(err, ErrUnsupportedVersion) && !errors.Is(err, ErrChecksum) && !errors.Is(err, ErrCorrupt) {
		t.Fatalf("%s: untyped error %v", what, err)
	}
	return err
}

func TestEveryBitFlipIsRefused(t *testing.T) {
	t.Parallel()
	imgtest.Heavy(t)
	data := smallestImage(t)
	if len(data) > 64<<10 {
		t.Logf("tiny image is %d bytes", len(data))
	}
	if _, err := OpenBytes(data); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, len(data))
	for i := range data {
		for bit := 0; bit < 8; bit++ {
			copy(buf, data)
			buf[i] ^= 1 << bit
			mustRefuse(t, buf, "bit flip")
		}
	}
	t.Logf("%d bit flips of a %d-byte image refused", 8*len(data), len(data))
}

func TestEveryTruncationIsRefused(t *testing.T) {
	data := tinyImage(t)
	for n := 0; n < len(data); n++ {
		mustRefuse(t, data[:n:n], "truncation")
	}
	for _, extra := range []int{1, 7, 4096} {
		mustRefuse(t, append(append([]byte(nil), data...), make([]byte, extra)...), "appended bytes")
	}
}

func TestCraftedImagesAreRefused(t *testing.T) {
	data := tinyImage(t)
	img, err := OpenBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	at := img.Places()
	u32 := func(b []byte, off int, v uint32) { binary.LittleEndian.PutUint32(b[off:], v) }
	cases := []struct {
		name   string
		mutate func(b []byte)
	}{
		{"CSR target beyond the node count", func(b []byte) { u32(b, at["csr.neighbors"], 1<<20) }},
		{"CSR offsets decreasing", func(b []byte) { u32(b, at["csr.offsets"]+4, 1<<20) }},
		{"vector length past the end", func(b []byte) { u32(b, at["csr.neighbors"]-4, 0x40000000) }},
		{"string span past its data", func(b []byte) { u32(b, at["node.id.spans"]+4, 1<<30) }},
		{"node id index unsorted", func(b []byte) {
			o := at["node_id_order"]
			x, y := binary.LittleEndian.Uint32(b[o:]), binary.LittleEndian.Uint32(b[o+4:])
			u32(b, o, y)
			u32(b, o+4, x)
		}},
		{"roaring cookie", func(b []byte) { b[at["facet0.bitmap"]] ^= 0xff }},
		{"roaring value beyond the node count", func(b []byte) {
			binary.LittleEndian.PutUint16(b[at["facet0.lastword"]:], 0xfffe)
		}},
		{"root offset outside the buffer", func(b []byte) { u32(b, at["payload"], 0x7fffffff) }},
		{"provenance record points elsewhere", func(b []byte) {
			o := at["prov.relRecord"]
			u32(b, o, binary.LittleEndian.Uint32(b[o:])+1)
		}},
		{"relationship label out of range", func(b []byte) { b[at["rel.label"]] = 9 }},
		// Values the gate refuses: an image carrying one (checksum recomputed)
		// used to open and then fail get_framework_statistics.
		{"NaN supportConfidence", func(b []byte) { binary.LittleEndian.PutUint64(b[at["rel.confidence"]:], math.Float64bits(math.NaN())) }},
		{"infinite supportConfidence", func(b []byte) { binary.LittleEndian.PutUint64(b[at["rel.confidence"]:], math.Float64bits(math.Inf(1))) }},
		{"supportConfidence above 1", func(b []byte) { binary.LittleEndian.PutUint64(b[at["rel.confidence"]:], math.Float64bits(1.5)) }},
		{"negative supportConfidence", func(b []byte) { binary.LittleEndian.PutUint64(b[at["rel.confidence"]:], math.Float64bits(-0.25)) }},
		{"isCurrent neither true nor false", func(b []byte) { b[at["node.is_current"]] = 7 }},
		{"two nodes at one curriculum position", func(b []byte) { copy(b[at["node.cur_pos"]:at["node.cur_pos"]+4], b[at["node.cur_pos"]+4:]) }},
		{"curriculum position past the last node", func(b []byte) { u32(b, at["node.cur_pos"], 0xfffffff0) }},
		{"unsupported format version", func(b []byte) { u32(b, 8, format.FormatVersion+1) }},
		{"format version 0", func(b []byte) { u32(b, 8, 0) }},
		{"header and payload disagree on the version", func(b []byte) { u32(b, 8, format.FormatVersion-1) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := append([]byte(nil), data...)
			c.mutate(b)
			err := mustRefuse(t, Reseal(b), c.name)
			if !strings.HasPrefix(c.name, "unsupported") && c.name != "format version 0" && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotImage) {
				t.Errorf("want ErrCorrupt, got %v", err)
			}
			t.Logf("refused: %v", err)
		})
	}
}

// TestDeepChecksRefuseWhatTheGateRefuses: values Open leaves to VerifyDeep
// (they cost a pass over the data and can only give a wrong answer): invalid
// UTF-8 in a string column, stored provenance that is not JSON, a compiled
// profile or manifest that is not the embedded JSON.
func TestDeepChecksRefuseWhatTheGateRefuses(t *testing.T) {
	data := tinyImage(t)
	img, err := OpenBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := img.VerifyDeep(); err != nil {
		t.Fatalf("a valid image fails VerifyDeep: %v", err)
	}
	at := img.Places()
	for name, mutate := range map[string]func(b []byte){
		"invalid UTF-8 in a description":         func(b []byte) { b[at["node.desc.data"]] = 0xff },
		"provenance record that is not JSON":     func(b []byte) { b[at["prov.record0"]] = '<' },
		"node provenance entry that is not JSON": func(b []byte) { b[at["node.provenance"]] = '<' },
		// encoding/json's Valid accepts these; the server's encoder does not.
		"invalid UTF-8 inside a provenance record":     func(b []byte) { b[inString(b, at["prov.record0"])] = 0xff },
		"invalid UTF-8 inside a node provenance entry": func(b []byte) { b[inString(b, at["node.provenance"])] = 0xff },
		"compiled profile unlike profile_json":         func(b []byte) { b[at["compiled.local_subject"]] ^= 0x20 },
		"compiled profile keys out of order":           func(b []byte) { b[at["compiled.key0"]] = '~' },
		"compiled manifest unlike manifest_json":       func(b []byte) { b[at["compiled.framework_name"]] ^= 0x20 },
	} {
		t.Run(name, func(t *testing.T) {
			b := append([]byte(nil), data...)
			mutate(b)
			img, err := OpenBytes(Reseal(b))
			if err != nil {
				t.Fatalf("Open refused what only VerifyDeep checks: %v", err)
			}
			if err := img.VerifyDeep(); !errors.Is(err, ErrCorrupt) {
				t.Errorf("VerifyDeep: %v, want ErrCorrupt", err)
			}
		})
	}
}

// inString returns the offset of the first byte inside the first JSON string
// at or after off.
func inString(b []byte, off int) int {
	return off + bytes.IndexByte(b[off:], '"') + 1
}

func TestHeaderErrorsAreTyped(t *testing.T) {
	data := tinyImage(t)
	bad := append([]byte(nil), data...)
	bad[0] = 'X'
	if _, err := OpenBytes(bad); !errors.Is(err, ErrNotImage) {
		t.Errorf("bad magic: %v", err)
	}
	bad = append([]byte(nil), data...)
	bad[len(bad)-1] ^= 1
	if _, err := OpenBytes(bad); !errors.Is(err, ErrChecksum) {
		t.Errorf("flipped payload byte: %v", err)
	}
	bad = append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(bad[8:], 7)
	if _, err := OpenBytes(bad); !errors.Is(err, ErrUnsupportedVersion) {
		t.Errorf("future version: %v", err)
	}
	if _, err := OpenBytes(nil); !errors.Is(err, ErrNotImage) {
		t.Errorf("empty: %v", err)
	}
}

// FuzzOpen opens arbitrary bytes and, when they verify, exercises every
// accessor on every record: never a panic.
func FuzzOpen(f *testing.F) {
	data := tinyImage(f)
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		// Most random inputs die at the checksum; reseal half of them so the
		// fuzzer reaches the structural verifier.
		if len(b) > format.HeaderSize && b[len(b)-1]&1 == 0 {
			Reseal(b)
		}
		img, err := OpenBytes(b)
		if err != nil {
			return
		}
		exercise(img)
	})
}

func exercise(img *Image) {
	for n := 0; n < img.NodeCount(); n++ {
		o := uint32(n)
		for f := NodeField(0); f < NumNodeFields; f++ {
			_ = img.NodeString(o, f)
		}
		_, _ = img.NodeGradeLevel(o).Strings(), img.NodeTags(o).Strings()
		_, _ = img.NodeByID(img.NodeString(o, NodeID))
		_ = img.NodesByCaseUUID(img.NodeString(o, NodeCaseIdentifierUUID))
		for l := RelLabel(0); l <= RelatesTo; l++ {
			for d := Direction(0); d <= In; d++ {
				nb, ed := img.Adjacency(l, d).Row(o)
				_, _ = nb.AppendTo(nil), ed.AppendTo(nil)
			}
		}
	}
	for r := 0; r < img.RelationshipCount(); r++ {
		o := uint32(r)
		for f := RelField(0); f < NumRelFields; f++ {
			_ = img.RelString(o, f)
		}
		_, _, _ = img.Provenance(o)
		_ = img.RelConfidence(o)
	}
	fs := img.Facets()
	for i := range fs {
		_ = fs[i].Bitmap.AppendTo(nil)
		_ = AppendAnd(nil, fs[i].Bitmap, fs[0].Bitmap)
	}
	_ = img.Sections()
	_, _ = img.Artifact("nodes")
	_ = img.CompiledManifest()
	cp := img.CompiledProfile()
	p := cp.Decode()
	for k := KeyGradeName; k <= KeyNormalizedSubject; k++ {
		_ = cp.Targets(k, p.LocalSubject)
		_ = cp.Targets(k, "")
	}
}

// TestResealedMutationsNeverFault flips random bits of an image and reseals
// its checksum, as a crafted image would: whatever Open accepts must be safe
// to read through every accessor, the compiled profile and manifest included.
func TestResealedMutationsNeverFault(t *testing.T) {
	t.Parallel()
	imgtest.Heavy(t)
	data := tinyImage(t)
	rng := rand.New(rand.NewSource(1))
	opened := 0
	for i := 0; i < 2000; i++ {
		b := append([]byte(nil), data...)
		for k := 0; k < 1+rng.Intn(3); k++ {
			b[format.HeaderSize+rng.Intn(len(b)-format.HeaderSize)] ^= byte(1 << rng.Intn(8))
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("mutation %d: a panic reading an image Open accepted: %v", i, r)
				}
			}()
			img, err := OpenBytes(Reseal(b))
			if err != nil {
				return
			}
			opened++
			exercise(img)
		}()
	}
	if opened == 0 {
		t.Fatal("no mutation opened: the test exercises nothing")
	}
	t.Logf("%d of 2000 resealed mutations opened and were read through every accessor", opened)
}
