package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/kgc-project/kgc/schema/manifest"
)

// insideRoot refuses a destination that would leave the output root: the
// framework or snapshot directory already there as a symlink or as anything
// but a directory.
func insideRoot(root string, parts ...string) error {
	p := root
	for _, part := range parts {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return usage("output root: %v", err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
			return &RefusedError{Reason: fmt.Sprintf("%s is not a directory inside the output root (a symlink or a file): the package would be written outside %s", p, root)}
		}
	}
	return nil
}

// checkExisting refuses a terminal package at target, even in a dry run.
func checkExisting(target string) error {
	b, err := os.ReadFile(filepath.Join(target, manifest.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		if _, serr := os.Lstat(target); serr == nil {
			return &RefusedError{Reason: fmt.Sprintf("%s exists but its manifest cannot be read (%v); a package is never overwritten", target, err)}
		}
		return nil
	}
	var m struct {
		Validation struct {
			Status string `json:"status"`
		} `json:"validation"`
	}
	if json.Unmarshal(b, &m) == nil && m.Validation.Status != "" && m.Validation.Status != "pending" {
		return &RefusedError{Reason: fmt.Sprintf("%s is a %s package: terminal packages are never rewritten", target, m.Validation.Status)}
	}
	return nil
}

// copyInputs copies every input into the staged package, checking that each
// still has the digest it was hashed with.
func copyInputs(staged string, inputs []input) error {
	for _, in := range inputs {
		dst := filepath.Join(staged, filepath.FromSlash(in.path))
		if in.src == "" {
			if err := stages.write(dst, in.data); err != nil {
				return usage("staging: %v", err)
			}
			continue
		}
		src, err := openInput(in.src)
		if err != nil {
			return usage("input %s: %v", in.src, err)
		}
		out, err := stages.create(dst)
		if err != nil {
			src.Close()
			return usage("staging: %v", err)
		}
		h := sha256.New()
		_, err = io.Copy(io.MultiWriter(out, h), src)
		src.Close()
		if err == nil {
			err = out.Sync()
		}
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return usage("copying %s: %v", in.src, err)
		}
		if got := "sha256:" + hex.EncodeToString(h.Sum(nil)); got != in.sum {
			return usage("input %s changed while it was packed", in.src)
		}
	}
	return nil
}

func writeFile(p string, b []byte) error {
	if err := stages.write(p, b); err != nil {
		return usage("staging: %v", err)
	}
	return nil
}

// differences lists the package-relative paths whose presence or bytes differ
// between the staged package a and the existing one b, sorted (directories
// end in a slash).
func differences(a, b string) ([]string, error) {
	list := func(root string) (map[string]string, error) {
		out := map[string]string{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			switch {
			case d.IsDir():
				out[rel+"/"] = ""
			case d.Type().IsRegular():
				sum, _, err := digest(p)
				if err != nil {
					return err
				}
				out[rel] = sum
			default:
				out[rel] = "special"
			}
			return nil
		})
		return out, err
	}
	x, err := list(a)
	if err != nil {
		return nil, usage("comparing: %v", err)
	}
	y, err := list(b)
	if err != nil {
		return nil, &RefusedError{Reason: fmt.Sprintf("%s cannot be compared with the new package: %v", b, err)}
	}
	var diff []string
	for k, v := range x {
		if w, ok := y[k]; !ok || w != v {
			diff = append(diff, k)
		}
	}
	for k := range y {
		if _, ok := x[k]; !ok {
			diff = append(diff, k)
		}
	}
	sort.Strings(diff)
	if len(diff) == 1 && diff[0] == manifest.FileName {
		return manifestDifferences(filepath.Join(a, manifest.FileName), filepath.Join(b, manifest.FileName)), nil
	}
	return diff, nil
}

// manifestDifferences names the manifest fields that differ (the top-level
// ones, and framework.* one level down) as "package_manifest.json <field>".
func manifestDifferences(staged, existing string) []string {
	here, there := readJSON(staged), readJSON(existing)
	if here == nil || there == nil {
		return []string{manifest.FileName}
	}
	var out []string
	for _, k := range unionKeys(here, there) {
		hf, hok := here[k].(map[string]any)
		tf, tok := there[k].(map[string]any)
		if k == "framework" && hok && tok {
			for _, sub := range unionKeys(hf, tf) {
				if !reflect.DeepEqual(hf[sub], tf[sub]) {
					out = append(out, manifest.FileName+" "+k+"."+sub)
				}
			}
		} else if !reflect.DeepEqual(here[k], there[k]) {
			out = append(out, manifest.FileName+" "+k)
		}
	}
	if len(out) == 0 {
		return []string{manifest.FileName}
	}
	return out
}

// readJSON reads a JSON object (nil when it cannot).
func readJSON(p string) map[string]any {
	var m map[string]any
	if b, err := os.ReadFile(p); err == nil {
		json.Unmarshal(b, &m)
	}
	return m
}

// unionKeys returns the keys of a and b, sorted.
func unionKeys(a, b map[string]any) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// differentPackage is the refusal for a destination holding another package:
// what differs and, when the createdAt does, how to reproduce the package
// that is there.
func differentPackage(target string, diff []string) string {
	shown := diff
	if len(shown) > 5 {
		shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(diff)-5))
	}
	msg := fmt.Sprintf("%s already holds a different package (differing: %s)", target, strings.Join(shown, ", "))
	if slices.Contains(diff, manifest.FileName+" createdAt") {
		there, _ := readJSON(filepath.Join(target, manifest.FileName))["createdAt"].(string)
		msg += fmt.Sprintf("; its createdAt is %s: pack with --created-at %s", there, there)
		if t, err := time.Parse(time.RFC3339, there); err == nil && t.Unix() >= 0 {
			msg += fmt.Sprintf(" (or SOURCE_DATE_EPOCH=%d)", t.Unix())
		}
		msg += " to reproduce it"
	}
	return msg + "; a package is never overwritten (remove it first if it is yours to replace)"
}

// syncDir makes a rename durable (best effort).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
