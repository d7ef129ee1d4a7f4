package kgimg_test

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/kgc-project/kgc/kgimg"
)

// OpenLazy verifies the header and the catalog part (read whole at once, or
// in a second read when it ends past the first) and resolves no view into
// the payload until Ready has verified it; then the views are exactly those
// of an image verified whole at open, and so are the catalog part's
// accessors before and after.
func TestLazyImagesResolveNoViewBeforeReady(t *testing.T) {
	for _, path := range sampleImagePaths(t) {
		for _, first := range []int64{64 << 10, 100} {
			t.Run(filepath.Base(path), func(t *testing.T) {
				defer SetFirstRead(first)()
				whole, err := Open(path)
				if err != nil {
					t.Fatal(err)
				}
				defer whole.Close()
				want, err := whole.ViewSpans()
				if err != nil {
					t.Fatal(err)
				}
				var manifestSeen []byte
				img, err := OpenLazy(path, func(v *Image) error {
					manifestSeen = slices.Clone(v.ManifestJSON())
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				defer img.Close()
				if !img.Lazy() {
					t.Fatal("a format 3 image was verified whole")
				}
				spans, err := img.ViewSpans()
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range spans {
					if strings.Contains(s, " @") {
						t.Errorf("a view resolved before Ready: %s", s)
						break
					}
				}
				if !slices.Equal(manifestSeen, whole.ManifestJSON()) || !slices.Equal(img.ManifestJSON(), whole.ManifestJSON()) ||
					img.Identity() != whole.Identity() || !slices.Equal(img.ProfileJSON(), whole.ProfileJSON()) {
					t.Error("the catalog part reads differently opened lazily")
				}
				if err := img.Ready(); err != nil {
					t.Fatal(err)
				}
				got, err := img.ViewSpans()
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("views after Ready differ from an image verified whole")
				}
				if img.NodeCount() != whole.NodeCount() || img.NodeCount() == 0 {
					t.Errorf("%d nodes, %d verified whole", img.NodeCount(), whole.NodeCount())
				}
			})
		}
	}
}

// A corrupt catalog part is refused at open; a corrupt byte elsewhere is
// refused by Ready (and by Open), never read.
func TestLazyImagesRefuseCorruption(t *testing.T) {
	path := sampleImagePaths(t)[0]
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	part, n := binary.LittleEndian.Uint32(orig[48:]), binary.LittleEndian.Uint32(orig[52:])
	write := func(at uint32) string {
		b := slices.Clone(orig)
		b[at] ^= 0x40
		p := filepath.Join(t.TempDir(), "x.kgimg")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, err := OpenLazy(write(part+n/2), nil); !errors.Is(err, ErrChecksum) {
		t.Errorf("a corrupt catalog part: %v, want ErrChecksum at open", err)
	}
	if _, err := OpenLazy(write(57), nil); !errors.Is(err, ErrChecksum) {
		t.Errorf("a corrupt catalog checksum: %v, want ErrChecksum at open", err)
	}
	p := write(part + n + (uint32(len(orig))-part-n)/2)
	img, err := OpenLazy(p, nil)
	if err != nil {
		t.Fatalf("a corrupt payload refused before its first use: %v", err)
	}
	defer img.Close()
	if img.NodeCount() != 0 || img.ArtifactCount() != 0 || img.RelationshipCount() != 0 || img.RootNode() != 0 {
		t.Error("an unverified payload was read")
	}
	if !errors.Is(img.Ready(), ErrChecksum) || !errors.Is(img.VerifyDeep(), ErrChecksum) {
		t.Errorf("Ready: %v, want ErrChecksum", img.Ready())
	}
	if _, err := Open(p); !errors.Is(err, ErrChecksum) {
		t.Errorf("Open: %v, want ErrChecksum", err)
	}
}

// The catalog part's case_keys are checked at open: keys out of order (a
// crafted image, resealed) refuse the image; the keys say which CASE
// identifiers the image may hold.
func TestCaseKeysAreCheckedAtOpen(t *testing.T) {
	path := sampleImagePaths(t)[1]
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := OpenLazy(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	vec, n := img.CaseKeys()
	if n < 2 {
		t.Fatalf("the sample's catalog part has %d case keys", n)
	}
	if img.MayHold("urn:uuid:not-in-any-package") || img.MayHold("") {
		t.Error("MayHold says yes to an identifier the image does not hold")
	}
	at := int(binary.LittleEndian.Uint32(orig[48:])) + vec
	b := slices.Clone(orig)
	first, second := slices.Clone(b[at:at+8]), slices.Clone(b[at+8:at+16])
	copy(b[at:], second)
	copy(b[at+8:], first)
	p := filepath.Join(t.TempDir(), "x.kgimg")
	if err := os.WriteFile(p, Reseal(b), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenLazy(p, nil); err == nil || !strings.Contains(err.Error(), "case_keys") {
		t.Errorf("case keys out of order: %v, want the image refused", err)
	}
}
