package format

import (
	"math/rand/v2"
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
