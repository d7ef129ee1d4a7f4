package kgimg_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
	. "github.com/kgc-project/kgc/kgimg"
)

// sampleImagePaths returns the shipped samples' images and the smallest
// image, as files.
func sampleImagePaths(t *testing.T) []string {
	dir := imgtest.Images(t, nil, nil)
	small := filepath.Join(dir, "smallest.kgimg")
	if err := os.WriteFile(small, smallestImage(t), 0o644); err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.kgimg"))
	if len(paths) < 3 {
		t.Fatalf("%d images in %s", len(paths), dir)
	}
	return paths
}

// Open verifies a small image on the bytes it read through the descriptor and
// re-points the views resolved there at the mapping: every view lies in the
// mapping, at exactly the offset and length the views resolved over the
// mapping itself (as a large image's are) and over the bytes in memory have.
func TestViewsPointIntoTheMapping(t *testing.T) {
	for _, path := range sampleImagePaths(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			spans := func(open func() (*Image, error)) []string {
				t.Helper()
				img, err := open()
				if err != nil {
					t.Fatal(err)
				}
				defer img.Close()
				s, err := img.ViewSpans()
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			copied := spans(func() (*Image, error) { return Open(path) })
			restore := SetReadVerifyLimit(-1)
			mapped := spans(func() (*Image, error) { return Open(path) })
			restore()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			inMemory := spans(func() (*Image, error) { return OpenBytes(data) })
			if len(copied) < 100 {
				t.Fatalf("only %d views", len(copied))
			}
			for i := range copied {
				if i >= len(mapped) || copied[i] != mapped[i] || copied[i] != inMemory[i] {
					t.Fatalf("view %d: verified on a copy %q, over the mapping %q, in memory %q", i, copied[i], mapped[i], inMemory[i])
				}
			}
			if len(copied) != len(mapped) || len(copied) != len(inMemory) {
				t.Fatalf("%d, %d and %d views", len(copied), len(mapped), len(inMemory))
			}
		})
	}
}

// OpenWith's read sees the verified image before Open returns; for a small
// image that is the copy Open read, which is reused afterwards (and wiped in
// race-detector builds), so read must copy out what it keeps. An error from
// read fails the open. A large image is verified over its mapping: read gets
// the image Open returns.
func TestOpenWithReadsACopy(t *testing.T) {
	path := sampleImagePaths(t)[0]
	var kept, want []byte
	var seen *Image
	img, err := OpenWith(path, func(v *Image) error {
		seen, kept, want = v, v.ManifestJSON(), bytes.Clone(v.ManifestJSON())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	if seen == img {
		t.Fatal("read saw the returned image, not the verified copy")
	}
	if !bytes.Equal(img.ManifestJSON(), want) || len(want) == 0 {
		t.Fatalf("the mapped image's manifest differs from the copy's (%d bytes)", len(want))
	}
	if ScrubsCopies && bytes.Equal(kept, want) {
		t.Fatal("a view kept from the copy still reads the manifest after the copy was reused")
	}

	refused := errors.New("refused by read")
	if _, err := OpenWith(path, func(*Image) error { return refused }); !errors.Is(err, refused) {
		t.Fatalf("read's error: got %v", err)
	}

	defer SetReadVerifyLimit(-1)()
	img2, err := OpenWith(path, func(v *Image) error { seen = v; return nil })
	if err != nil {
		t.Fatal(err)
	}
	defer img2.Close()
	if seen != img2 {
		t.Fatal("over the mapping, read should see the image returned")
	}
	if !slices.Equal(img2.ManifestJSON(), want) {
		t.Fatal("manifests differ")
	}
}
