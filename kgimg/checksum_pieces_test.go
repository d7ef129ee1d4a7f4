package kgimg

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestChecksumInPieces: the checksum of a file read in pieces (as Open reads
// it through the descriptor) equals Checksum of the whole, whatever the piece
// boundaries, including pieces that split the checksum field.
func TestChecksumInPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, size := range []int{headerSize, headerSize + 1, 1023, 1024, 1089, 1090, 4096, 300_001} {
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
