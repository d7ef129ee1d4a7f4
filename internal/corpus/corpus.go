// Package corpus locates the optional real corpus (published graph packages,
// profiles and prompt configs) that some tests and benchmarks use when it is
// present. The project does not ship it: a checkout may have it beside the
// module, or name it with KGC_CORPUS. Everything that looks for it asks Dir,
// so the location is set in one place.
package corpus

import (
	"os"
	"path/filepath"
	"runtime"
)

// Env names the corpus directory when set.
const Env = "KGC_CORPUS"

// beside is where the corpus sits when KGC_CORPUS is unset, relative to the
// module root.
const beside = "../shared/corpus"

// Dir returns the corpus directory (which may not exist): $KGC_CORPUS, else
// the directory beside the module root.
func Dir() string {
	if d := os.Getenv(Env); d != "" {
		return d
	}
	return filepath.Join(moduleRoot(), filepath.FromSlash(beside))
}

// Present reports whether the corpus directory exists.
func Present() bool {
	_, err := os.Stat(Dir())
	return err == nil
}

// moduleRoot is the directory holding the module's go.mod (from this source
// file's location; "." if it cannot be found).
func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	for dir := filepath.Dir(file); ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}
