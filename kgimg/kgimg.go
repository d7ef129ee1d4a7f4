// Package kgimg opens .kgimg images: one compiled, checksummed, self-contained
// package snapshot. Open maps the file read-only and verifies it: the header in
// order (magic, format version, sizes, whole-file XXH3-64 checksum), then a
// structural verifier written for kgimg/kgimg.fbs (every offset, vtable,
// vector and string in bounds; CSR offsets monotonic with targets below the
// node count; ordinals in range; sorted indexes sorted; roaring bitmaps
// valid). Only an image that passes all of it is returned. The verification
// reads the file through its descriptor, not the mapping (see verifyOpened),
// so opening a catalog of small images maps none of their pages in.
//
// Accessors read the mapped bytes in place: strings and byte slices they return
// alias the mapping. The API speaks only its own types (NodeKind, RelLabel,
// Direction, FacetKind, ProfileKeyKind, and views such as Adjacency, U32s,
// StringList, Bitmap, Artifact and CompiledProfile): the FlatBuffers code in
// kgimg/kgfb is read by this package alone, so the format can change under it.
//
// # Caveats
//
//   - Slices, strings and Bitmaps returned by an Image are valid only until Close.
//     Copy anything that must outlive it.
//   - The mapping is read-only: writing through a returned slice faults.
//   - Replace images by writing a new file and renaming it over the old one, never
//     in place: a truncated mapping faults on access.
//   - The format is little-endian.
package kgimg

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/kgc-project/kgc/kgimg/kgfb"
)

// Image is an open, verified image.
type Image struct {
	path   string
	stat   os.FileInfo // the opened file as it was verified (nil for OpenBytes)
	file   []byte      // the whole file (mapped or read)
	unmap  func() error
	closed atomic.Bool
	root   *kgfb.Image // nil until the payload is verified (see Ready)
	header Header
	// part is the catalog part's root (format 3; nil before).
	part *kgfb.CatalogPart

	// lazy marks a format 3 image opened by OpenLazy: only its header and
	// catalog part were verified at open; Ready verifies the rest, once.
	lazy     bool
	once     sync.Once
	readyErr error
	verified atomic.Bool // Ready has verified the payload

	v views
}

// views are the column and index views the accessors read, resolved once at
// open over the image's bytes.
type views struct {
	n                                                    nodeCols
	r                                                    relCols
	nodeIDOrder, caseUUIDOrder, caseURIOrder, relIDOrder U32s
	adj                                                  [8]Adjacency
	facets                                               []FacetRef
	itemTokens, componentTokens, componentTags           postingList
	codeOrder                                            U32s
	prov                                                 provenanceCols
	pub                                                  publisherCols
}

// beforeOpen runs between the checks of a path and its opening (a test hook:
// the file can be swapped there).
var beforeOpen = func(string) {}

// Open maps and verifies the image at path.
func Open(path string) (*Image, error) { return OpenWith(path, nil) }

// OpenWith is Open, and calls read (when not nil) once with the verified
// image before returning, so that a caller can take what it needs at open
// without reading the mapping: for an image Open verifies on a copy read
// through the descriptor (see verifyOpened) read gets the image over that
// copy, whose bytes are reused once read returns, so read must copy out
// everything it keeps. An error from read fails the open.
func OpenWith(path string, read func(verified *Image) error) (*Image, error) {
	fi, f, err := openChecked(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return openMapped(path, f, fi, read)
}

// openChecked opens path for reading after checking what it is (a regular
// file, or a link to one, of a size an image can have), and returns the
// descriptor's own description of it: what is mapped is what the open
// descriptor holds, not what the path held at Lstat.
func openChecked(path string) (fs.FileInfo, *os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("kgimg: open %s: %w", path, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		// Follow a link only to a regular file.
		if fi, err = os.Stat(path); err != nil {
			return nil, nil, fmt.Errorf("kgimg: open %s: %w", path, err)
		}
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("kgimg: open %s: %w (not a regular file)", path, ErrNotImage)
	}
	if fi.Size() < int64(len(magic)) {
		return nil, nil, fmt.Errorf("kgimg: open %s: %w (%d bytes)", path, ErrNotImage, fi.Size())
	}
	if fi.Size() > MaxImageSize {
		return nil, nil, fmt.Errorf("kgimg: open %s: %w", path, corrupt("header", -1, "file of %d bytes exceeds the format's limit", fi.Size()))
	}
	beforeOpen(path)
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("kgimg: open %s: %w", path, err)
	}
	if fi, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("kgimg: open %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() || fi.Size() < int64(len(magic)) || fi.Size() > MaxImageSize {
		f.Close()
		return nil, nil, fmt.Errorf("kgimg: open %s: %w (changed while being opened)", path, ErrNotImage)
	}
	return fi, f, nil
}

// openMapped maps the file f holds and verifies it whole (see verifyOpened).
func openMapped(path string, f *os.File, fi fs.FileInfo, read func(*Image) error) (*Image, error) {
	b, unmap, err := mapFile(f, int(fi.Size()))
	if err != nil {
		return nil, fmt.Errorf("kgimg: open %s: %w", path, err)
	}
	img, err := verifyOpened(f, fi, b, read)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("kgimg: open %s: %w", path, err)
	}
	img.path, img.unmap, img.stat = path, unmap, fi
	return img, nil
}

// verifyOpened verifies the image f holds and returns it over b, f's
// mapping. Nothing is verified through the mapping that can be verified on
// bytes read through the descriptor: on a catalog of small images, faulting
// the pages of a fresh mapping in (or populating it) costs several times
// reading and hashing them, so only the pages later requests read are ever
// mapped in.
//
//   - An image of up to readVerifyLimit bytes is read whole and verified
//     there, checksum, structure and invariants; the image returned over b
//     has its views re-pointed from the copy (verifyRead).
//   - A larger one is checksummed through the descriptor a chunk at a time,
//     then its structure and invariants are verified over b.
//
// Either way the file must not have changed while it was read (unchanged),
// so what was verified is what is mapped: images are replaced by renaming a
// new file over the old one, never written in place (see the package doc).
func verifyOpened(f *os.File, fi fs.FileInfo, b []byte, read func(*Image) error) (*Image, error) {
	if fi.Size() <= readVerifyLimit {
		return verifyRead(f, fi, b, read)
	}
	sum, haveSum, err := fileChecksum(f, int(fi.Size()))
	if err == nil && haveSum {
		err = unchanged(f, fi)
	}
	if err != nil {
		return nil, err
	}
	img, err := newImage(b, sum, haveSum)
	if err == nil && read != nil {
		err = read(img)
	}
	return img, err
}

// verifyRead verifies the image f holds on a copy read through the
// descriptor, lets read take what it needs from the copy, and returns the
// image over b without having read b: the header is the copy's, the root
// table is at the offset the copy gave, and the views resolved over the copy
// are re-pointed at the same offsets of b (rebaser).
func verifyRead(f *os.File, fi fs.FileInfo, b []byte, read func(*Image) error) (*Image, error) {
	bp := readBuffers.Get().(*[]byte)
	defer readBuffers.Put(bp)
	buf, err := readAll(f, int(fi.Size()), bp)
	if err == nil {
		err = unchanged(f, fi)
	}
	if err != nil {
		return nil, err
	}
	verified, err := newImage(buf, 0, false)
	if err != nil {
		return nil, err
	}
	if read != nil {
		err = read(verified)
		if scrubCopies {
			// Race-detector builds (every test run of make test) wipe the copy
			// once read returns: anything read kept that aliases it shows.
			for i := range buf {
				buf[i] = 0xA5
			}
		}
		if err != nil {
			return nil, err
		}
	}
	root := new(kgfb.Image)
	root.Init(b[headerSize:], verified.root.Table().Pos)
	img := &Image{file: b, header: verified.header, root: root, v: rebaser{from: buf, to: b}.views(&verified.v)}
	img.part = partOver(b, verified.header, verified.part)
	return img, nil
}

// partOver re-points a catalog part verified on a copy at the same bytes
// of b (nil for an image before format 3).
func partOver(b []byte, h Header, verified *kgfb.CatalogPart) *kgfb.CatalogPart {
	if verified == nil {
		return nil
	}
	part := new(kgfb.CatalogPart)
	part.Init(b[h.PartOffset:h.PartOffset+h.PartLength], verified.Table().Pos)
	return part
}

// OpenLazy opens the image at path for a catalog: a format 3 image has its
// header and catalog part read through the descriptor and verified (what
// read, when not nil, is given: see OpenWith), and is mapped; the rest of it
// is verified on first use (Ready), so that listing a catalog of many images
// reads a few kilobytes of each. An image of an older format is opened and
// verified whole, as OpenWith does.
//
// Until Ready has verified the payload, every accessor that reads outside
// the catalog part answers as for an empty image (no nodes, relationships,
// artifacts or relations): nothing unverified is ever read. A caller that
// serves an image calls Ready first and refuses the image when it fails.
func OpenLazy(path string, read func(verified *Image) error) (*Image, error) {
	fi, f, err := openChecked(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// One read takes the header and, written next to the root table near
	// the start of the file, the catalog part when it is small.
	bp := readBuffers.Get().(*[]byte)
	defer readBuffers.Put(bp)
	first := int(min(fi.Size(), firstRead))
	if cap(*bp) < first {
		*bp = make([]byte, first)
	}
	buf := (*bp)[:first]
	if _, err := f.ReadAt(buf, 0); err != nil {
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("%w (the file shrank while being opened)", ErrNotImage)
		}
		return nil, fmt.Errorf("kgimg: open %s: %w", path, err)
	}
	h, err := parseHead(buf, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("kgimg: open %s: %w", path, err)
	}
	if h.Version < 3 {
		return openMapped(path, f, fi, read)
	}
	img, err := openPart(f, fi, h, buf, bp, read)
	if err != nil {
		return nil, fmt.Errorf("kgimg: open %s: %w", path, err)
	}
	img.path, img.stat = path, fi
	return img, nil
}

// openPart verifies the catalog part of the format 3 image f holds (read
// through the descriptor), lets read take what it needs, and maps the file
// with its payload left to Ready.
func openPart(f *os.File, fi fs.FileInfo, h Header, first []byte, bp *[]byte, read func(*Image) error) (*Image, error) {
	end := int(h.PartOffset) + int(h.PartLength)
	buf := first
	if end > len(first) {
		// The part ends past the first read: read what is missing after it.
		if cap(*bp) < end {
			grown := make([]byte, end)
			copy(grown, first)
			*bp = grown
		}
		buf = (*bp)[:end]
		if _, err := f.ReadAt(buf[len(first):], int64(len(first))); err != nil {
			if errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("%w (the file shrank while being opened)", ErrNotImage)
			}
			return nil, fmt.Errorf("read: %w", err)
		}
	}
	head, part := buf[:headerSize], buf[h.PartOffset:end]
	if err := unchanged(f, fi); err != nil {
		return nil, err
	}
	verified := &Image{header: h}
	var err error
	if verified.part, err = verifyPart(h, head, part); err != nil {
		return nil, err
	}
	if err := verified.verifyCatalogSemantics(); err != nil {
		return nil, err
	}
	if read != nil {
		err = read(verified)
		if scrubCopies {
			for i := range part {
				part[i] = 0xA5
			}
		}
		if err != nil {
			return nil, err
		}
	}
	b, unmap, err := mapFile(f, int(fi.Size()))
	if err != nil {
		return nil, err
	}
	root := new(kgfb.CatalogPart)
	root.Init(b[h.PartOffset:h.PartOffset+h.PartLength], verified.part.Table().Pos)
	return &Image{file: b, unmap: unmap, header: h, part: root, lazy: true}, nil
}

// Ready verifies what OpenLazy left unverified (the whole file's checksum,
// the payload's structure and invariants) the first time it is called, and
// returns the outcome every time: nil for an image verified whole at open.
// An image that fails answers every accessor outside its catalog part as
// an empty one.
func (img *Image) Ready() error {
	if !img.lazy {
		return nil
	}
	img.once.Do(func() {
		img.readyErr = img.verifyLate()
		img.verified.Store(img.readyErr == nil)
		if img.readyErr != nil {
			img.readyErr = fmt.Errorf("kgimg: verify %s on first use: %w", img.path, img.readyErr)
		}
	})
	return img.readyErr
}

// verifyLate is Ready's verification, over the mapping.
func (img *Image) verifyLate() (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			img.root, img.v = nil, views{}
			if _, fault := r.(interface{ Addr() uintptr }); fault {
				err = corrupt("payload", -1, "reading the mapped file faulted: it was truncated or rewritten in place since it was opened")
				return
			}
			err = corrupt("payload", -1, "verification panicked: %v", r)
		}
	}()
	if err := checkSum(img.header, Checksum(img.file)); err != nil {
		return err
	}
	return img.verifyPayload()
}

// Lazy reports whether the image was opened by OpenLazy with its payload
// left to Ready.
func (img *Image) Lazy() bool { return img.lazy }

// Verified reports whether the whole image has been verified: at open, or
// by a Ready that passed (without verifying anything itself).
func (img *Image) Verified() bool { return !img.lazy || img.verified.Load() }

// noViews are what accessors read of an image whose payload did not verify.
var noViews views

// pv returns the payload's views: the image's own once its payload is
// verified (verifying it now when it was left to Ready), empty views when
// it failed.
func (img *Image) pv() *views {
	if img.lazy && img.Ready() != nil {
		return &noViews
	}
	return &img.v
}

// payloadRoot returns the Image table once the payload is verified (nil
// when it failed).
func (img *Image) payloadRoot() *kgfb.Image {
	if img.lazy && img.Ready() != nil {
		return nil
	}
	return img.root
}

var readBuffers = sync.Pool{New: func() any { return new([]byte) }}

// firstRead is how much of a file OpenLazy reads at once: the header and,
// in the images kgc writes, the catalog part after it when it is small (a
// package of few artifacts); the rest of a larger part is read after it.
var firstRead int64 = 16 << 10

// readAll reads the first size bytes of f into *bp, grown as needed.
func readAll(f *os.File, size int, bp *[]byte) ([]byte, error) {
	if cap(*bp) < size {
		*bp = make([]byte, size)
	}
	buf := (*bp)[:size]
	if _, err := f.ReadAt(buf, 0); errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("kgimg: read: %w (the file shrank while being opened)", ErrNotImage)
	} else if err != nil {
		return nil, fmt.Errorf("kgimg: read: %w", err)
	}
	return buf, nil
}

// unchanged reports an error when f's size or modification time differ from
// fi's (what CheckFile compares later): the file was written while it was
// being opened.
func unchanged(f *os.File, fi fs.FileInfo) error {
	now, err := f.Stat()
	if err != nil {
		return err
	}
	if now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
		return fmt.Errorf("%w (changed while being opened)", ErrNotImage)
	}
	return nil
}

// OpenBytes verifies an image held in memory (tests, fuzzing). The image
// aliases b.
func OpenBytes(b []byte) (*Image, error) {
	img, err := newImage(b, 0, false)
	if err != nil {
		return nil, err
	}
	img.unmap = func() error { return nil }
	return img, nil
}

// newImage verifies b; sum is its checksum when haveSum (computed as the
// file was read), else it is computed over b.
func newImage(b []byte, sum uint64, haveSum bool) (img *Image, err error) {
	// A file truncated while it is verified faults on the mapping: that is a
	// refused image, not a crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		// The verifier is written not to panic; this is the last line of defence.
		if r := recover(); r != nil {
			img, err = nil, corrupt("payload", -1, "verification panicked: %v", r)
		}
	}()
	var h Header
	if haveSum {
		h, err = parseHeaderFields(b)
		if err == nil {
			err = checkSum(h, sum)
		}
	} else {
		h, err = parseHeader(b)
	}
	if err != nil {
		return nil, err
	}
	img = &Image{file: b, header: h}
	if h.Version >= 3 {
		if img.part, err = verifyPart(h, b[:headerSize], b[h.PartOffset:h.PartOffset+h.PartLength]); err != nil {
			return nil, err
		}
	}
	if err := img.verifyPayload(); err != nil {
		return nil, err
	}
	return img, nil
}

// verifyPayload verifies the FlatBuffers payload (structure, then the
// invariants the accessors rely on) and resolves the views.
func (img *Image) verifyPayload() error {
	payload := img.file[headerSize:]
	if err := verifyStructure(payload); err != nil {
		return err
	}
	img.root = kgfb.GetRootAsImage(payload, 0)
	if err := img.verifySemantics(); err != nil {
		img.root, img.v = nil, views{}
		return err
	}
	return nil
}

// Close unmaps the image. It is safe to call more than once.
func (img *Image) Close() error {
	if img.closed.Swap(true) {
		return nil
	}
	return img.unmap()
}

// Path returns the path the image was opened from ("" for OpenBytes).
func (img *Image) Path() string { return img.path }

// Size returns the file size in bytes.
func (img *Image) Size() int64 { return int64(len(img.file)) }

// Bytes returns the whole file (aliasing the mapping).
func (img *Image) Bytes() []byte { return img.file }

// Header returns the decoded header.
func (img *Image) Header() Header { return img.header }
