package kgimg

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestChecksumInPlace holds the in-place checksum to the copying one (the
// value every image was sealed with) at every length around XXH3's block and
// buffer boundaries, and on larger files.
func TestChecksumInPlace(t *testing.T) {
	if !inPlaceOK {
		t.Skip("xxh3.Hasher's layout is not the one checksumInPlace knows: Checksum copies")
	}
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 1<<20+3*xxh3Buffer)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	var lengths []int
	for _, base := range []int{2 * xxh3Buffer, 3 * xxh3Block, 4 * xxh3Buffer, 1 << 16, 1 << 20} {
		for d := -70; d <= 70; d++ {
			lengths = append(lengths, base+d)
		}
	}
	for _, n := range lengths {
		file := buf[:n]
		sum, ok := checksumInPlace(file)
		if n <= 2*xxh3Buffer {
			if ok {
				t.Fatalf("%d bytes: hashed in place below the threshold", n)
			}
			continue
		}
		if !ok {
			t.Fatalf("%d bytes: not hashed in place", n)
		}
		if want := checksumCopying(file); sum != want {
			t.Fatalf("%d bytes: in place %016x, copying %016x", n, sum, want)
		}
	}
}

// BenchmarkChecksum compares the in-place checksum with the copying one over
// a 157 KB buffer (the size of a clone image of bench/startbench).
func BenchmarkChecksum(b *testing.B) {
	buf := make([]byte, 157<<10)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	b.Run("copying", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			checksumCopying(buf)
		}
	})
	b.Run("in-place", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			checksumInPlace(buf)
		}
	})
}

// TestChecksumInPieces: the checksum of a file read in pieces (as Open reads
// it through the descriptor) equals Checksum of the whole, whatever the piece
// boundaries, including pieces that split the checksum field.
func TestChecksumInPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, size := range []int{HeaderSize, HeaderSize + 1, 1023, 1024, 1089, 1090, 4096, 300_001} {
		file := make([]byte, size)
		for i := range file {
			file[i] = byte(rng.Uint32())
		}
		want := Checksum(file)
		for _, piece := range []int{1, 7, 41, 48, 1024, 1 << 20} {
			var c checksummer
			for off := 0; off < size; off += piece {
				c.write(append([]byte(nil), file[off:min(off+piece, size)]...))
			}
			if got := c.sum(); got != want {
				t.Errorf("size %d in pieces of %d: %016x, want %016x", size, piece, got, want)
			}
		}
		f := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(f, file, 0o644); err != nil {
			t.Fatal(err)
		}
		fd, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := fileChecksum(fd, size)
		fd.Close()
		if err != nil || ok && got != want {
			t.Errorf("size %d read from the file: %016x %v, want %016x", size, got, err, want)
		}
	}
}
