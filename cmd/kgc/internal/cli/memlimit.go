package cli

import (
	"bufio"
	"io"
	"os"
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
		debug.SetMemoryLimit(limit)
	}
}
