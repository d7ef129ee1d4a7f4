package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/schema/manifest"
)

// maxListed is how many directories a wrong-level message lists.
const maxListed = 8

// runGate runs the gate over one package directory argument, after checking
// that it is one: a framework directory or a package root (a directory
// without a manifest, holding packages further down) is a usage error that
// says which directories to pass instead, not a list of findings about a
// "package" that is not one.
func runGate(dir string, opts gate.Options) (*gate.Result, error) {
	if err := wrongLevel(dir); err != nil {
		return nil, err
	}
	limitMemoryFor(dir)
	return gate.Run(dir, opts)
}

// wrongLevel reports dir as a framework directory (its subdirectories are
// snapshots) or a package root (their subdirectories are), with the package
// directories found there; nil when dir has a manifest, is not a readable
// directory (the gate says why), or holds no package.
func wrongLevel(dir string) error {
	if _, err := os.Lstat(filepath.Join(dir, manifest.FileName)); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if snaps := snapshotsIn(dir); len(snaps) > 0 {
		return fmt.Errorf("a framework directory, not a package: pass %s (snapshot directories found there: %s)",
			filepath.Join(dir, "<snapshot-id>"), listed(snaps))
	}
	var pkgs []string
	for _, fw := range subdirs(dir) {
		pkgs = append(pkgs, snapshotsIn(fw)...)
	}
	if len(pkgs) > 0 {
		return fmt.Errorf("a directory of packages, not a package: pass %s (packages found there: %s)",
			filepath.Join(dir, "<framework-id>", "<snapshot-id>"), listed(pkgs))
	}
	return nil
}

// snapshotsIn lists the subdirectories of dir that look like packages: they
// hold a manifest, or are named like a snapshot ID (<framework>@<version>+<hash>).
func snapshotsIn(dir string) []string {
	var out []string
	for _, sub := range subdirs(dir) {
		name := filepath.Base(sub)
		_, err := os.Lstat(filepath.Join(sub, manifest.FileName))
		if err == nil || (strings.Contains(name, "@") && strings.Contains(name, "+")) {
			out = append(out, sub)
		}
	}
	return out
}

// subdirs lists dir's subdirectories (not following symlinks), sorted; an
// unreadable dir has none.
func subdirs(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// listed joins paths for a message, at most maxListed of them.
func listed(paths []string) string {
	if len(paths) <= maxListed {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(paths)-maxListed)
}
