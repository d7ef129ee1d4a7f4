package gate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/kgc-project/kgc/internal/safefile"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
)

// discover checks the package location: directory names, namespacing, and that
// neither the snapshot directory nor its framework directory is a symbolic link.
// It reports false when the tree cannot be read safely.
func (s *state) discover() bool {
	abs, err := filepath.Abs(s.dir)
	if err != nil {
		abs = s.dir
	}
	snap := filepath.Base(abs)
	fw := filepath.Base(filepath.Dir(abs))
	if why := ids.CheckSnapshot(snap); why != "" {
		s.add(finding.New(finding.SnapshotDirInvalid, "snapshot directory %q: %s", snap, why))
	}
	if why := ids.CheckFramework(fw); why != "" {
		s.add(finding.New(finding.FrameworkDirInvalid, "framework directory %q: %s", fw, why))
	}
	if ids.FrameworkOfSnapshot(snap) != fw {
		s.add(finding.New(finding.SnapshotNotNamespaced, "snapshot directory %q must sit under a framework directory named by its prefix (found %q)", snap, fw))
	}
	safe := true
	for _, p := range []string{abs, filepath.Dir(abs)} {
		fi, err := os.Lstat(p)
		if err == nil && fi.Mode()&os.ModeSymlink != 0 {
			s.add(finding.New(finding.PathSymlink, "%s is a symbolic link; packages must be real directories", p))
			safe = false
		}
	}
	if !safe {
		return false
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		s.add(finding.New(finding.PathSpecialFile, "the package directory cannot be opened: %v", err))
		return false
	}
	s.root = root
	return true
}

var nameFolder = cases.Fold()

// collisionKey is the key under which two names collide: Unicode NFC then case
// folding (so "A.json"/"a.json" and composed/decomposed twins collide).
func collisionKey(name string) string {
	return nameFolder.String(norm.NFC.String(name))
}

func unsafeName(name string) string {
	switch {
	case !utf8.ValidString(name):
		return "is not valid UTF-8"
	case strings.TrimSpace(name) != name:
		return "has leading or trailing whitespace"
	case strings.ContainsRune(name, '\\'):
		return "contains a backslash"
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return "contains a control character"
		}
	}
	return ""
}

// walk lists the package tree without following links, reporting symbolic
// links, special files, unsafe names and case-insensitive collisions.
func (s *state) walk() error {
	s.files = map[string]bool{}
	s.dirs = map[string]bool{}
	return s.walkDir(".", 0)
}

// Bounds of the walk. An artifact path has at most 512 characters, so no
// declared file lies deeper than maxWalkDepth directories: a deeper directory
// is reported as undeclared without being entered (3,000 nested levels took
// 8.1 s when every level was opened from the root). A tree with more than
// MaxTreeEntries names is refused with path_tree_too_large.
const (
	maxWalkDepth = 256
	// MaxTreeEntries bounds the files and directories the gate lists.
	MaxTreeEntries = 100000
)

func (s *state) walkDir(rel string, depth int) error {
	f, err := safefile.OpenDir(s.root, rel)
	if err != nil {
		if errors.Is(err, safefile.ErrWrongType) || errors.Is(err, syscall.ENOTDIR) {
			s.add(finding.New(finding.PathSpecialFile, "%s changed while the package was read: %v", rel, err).At("", rel))
			return nil
		}
		return fmt.Errorf("read %s: %w", filepath.Join(s.dir, rel), err)
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return fmt.Errorf("read %s: %w", filepath.Join(s.dir, rel), err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	seen := map[string]string{}
	for _, e := range entries {
		if len(s.files)+len(s.dirs) >= MaxTreeEntries {
			if !s.treeTooLarge {
				s.treeTooLarge = true
				s.add(finding.New(finding.PathTreeTooLarge, "the package tree holds more than %d files and directories; the rest are not examined", MaxTreeEntries))
			}
			return nil
		}
		name := e.Name()
		p := path.Join(rel, name)
		if why := unsafeName(name); why != "" {
			s.add(finding.New(finding.PathNameUnsafe, "name %q %s", name, why).At("", p))
			continue
		}
		k := collisionKey(name)
		if prev, dup := seen[k]; dup {
			s.add(finding.New(finding.PathCaseCollision, "%q and %q collide ignoring case and Unicode normalisation", path.Join(rel, prev), p).At("", p))
		}
		seen[k] = name
		mode := e.Type()
		switch {
		case mode&fs.ModeSymlink != 0:
			s.add(finding.New(finding.PathSymlink, "%s is a symbolic link; packages hold only regular files and directories", p).At("", p))
		case mode.IsDir():
			s.dirs[p] = true
			if depth+1 >= maxWalkDepth {
				continue // nothing declared can lie below: reported as undeclared
			}
			if err := s.walkDir(p, depth+1); err != nil {
				return err
			}
		case mode.IsRegular():
			s.files[p] = true
		default:
			s.add(finding.New(finding.PathSpecialFile, "%s is not a regular file (%s)", p, mode.Type()).At("", p))
		}
	}
	return nil
}
