package cli

import (
	"bufio"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
)

// softMemoryLimit returns the Go soft memory limit kgc sets for itself: two
// thirds of the machine's memory (from /proc/meminfo's MemTotal), or 0 when it
// cannot tell. The gate keeps a whole package decoded for the image writer, and
// with the default GC pacing a large package (a multi-gigabyte provenance set)
// grows the heap to twice its live size and is killed; under a soft limit the
// collector runs harder instead. GOMEMLIMIT, when set, wins.
func softMemoryLimit(meminfo io.Reader) int64 {
	sc := bufio.NewScanner(meminfo)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[0] == "MemTotal:" && fields[2] == "kB" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil || kb <= 0 {
				return 0
			}
			return kb * 1024 / 3 * 2
		}
	}
	return 0
}

// machineLimit is the limit ApplyMemoryLimit set from the machine's memory
// (0: none was set, or GOMEMLIMIT decides).
var machineLimit int64

// ApplyMemoryLimit sets the process's soft memory limit (softMemoryLimit) unless
// GOMEMLIMIT is set. kgc's main calls it once at start.
func ApplyMemoryLimit(getenv func(string) string) {
	if getenv("GOMEMLIMIT") != "" {
		return
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return
	}
	defer f.Close()
	if limit := softMemoryLimit(f); limit > 0 {
		machineLimit = limit
		debug.SetMemoryLimit(limit)
	}
}

// packageLimit is the soft memory limit kgc sets while it validates or
// compiles a package of size bytes: 1.5 times its size, at least 256 MiB, at
// most the machine's limit. The gate and the writer hold about 0.7 bytes of
// live heap per package byte (a million-standard package of 2.6 GB: 1.8 GB);
// with the collector's default pacing the heap grew to twice that, and the
// resident set (the image's pages, which are outside the heap, included) to
// between 1.7 and 2.1 times the package from one run to the next. Under this
// limit the collector runs a little earlier near the peak instead. The image
// a build writes is held outside the heap: imageHeld lowers the heap's share
// of the limit by its size.
func packageLimit(size, machine int64) int64 {
	limit := max(size/2*3, 256<<20)
	if machine > 0 {
		limit = min(limit, machine)
	}
	return limit
}

// currentLimit is the packageLimit limitMemoryFor last set (0: none).
var currentLimit int64

// limitMemoryFor sets packageLimit for the package in dir (the total size of
// its regular files), when ApplyMemoryLimit set a machine limit (so never
// against a GOMEMLIMIT the user gave).
func limitMemoryFor(dir string) {
	if machineLimit == 0 {
		return
	}
	var size int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	currentLimit = packageLimit(size, machineLimit)
	debug.SetMemoryLimit(currentLimit)
}

// imageHeld lowers the Go heap's limit by the bytes of an image being built
// or held outside the heap (kgimgwrite.BuildImage's anonymous mapping), and
// by a sixteenth more for what the runtime does not see (the section of the
// image written since it was last told, the program's own pages), so that
// the heap and the image together stay within the package's limit: the heap
// is left at least half of it (below that the collector would run without
// end over the decoded package). imageHeld(0) gives the heap the whole
// limit again. It does nothing when limitMemoryFor set no limit.
func imageHeld(imageBytes int) {
	if currentLimit == 0 {
		return
	}
	debug.SetMemoryLimit(heapShare(currentLimit, int64(imageBytes)))
}

// heapShare is the Go heap's share of limit while an image of imageBytes is
// held beside it (0: none): the rest less a sixteenth, but at least half of
// limit.
func heapShare(limit, imageBytes int64) int64 {
	if imageBytes == 0 {
		return limit
	}
	return max(limit-imageBytes-limit/16, limit/2)
}
