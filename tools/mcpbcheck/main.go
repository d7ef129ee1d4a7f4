// Command mcpbcheck reopens an MCPB bundle and checks it against the directory
// it was packed from: every member a relative path without `..`, no symlink
// or special file, every member byte-identical to the staged file, and every
// staged file present.
//
//	go run ./tools/mcpbcheck BUNDLE.mcpb STAGE_DIR
package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: mcpbcheck BUNDLE.mcpb STAGE_DIR")
		os.Exit(2)
	}
	if err := check(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "mcpbcheck:", err)
		os.Exit(1)
	}
	fmt.Println("mcpbcheck: ok", os.Args[1])
}

func check(bundle, stage string) error {
	zr, err := zip.OpenReader(bundle)
	if err != nil {
		return err
	}
	defer zr.Close()
	seen := map[string]bool{}
	var problems []string
	for _, f := range zr.File {
		name := f.Name
		switch {
		case strings.HasPrefix(name, "/") || filepath.IsAbs(name) || strings.Contains(name, `\`):
			problems = append(problems, name+": absolute or backslashed path")
			continue
		case path.Clean(name) != strings.TrimSuffix(name, "/") || strings.HasPrefix(path.Clean(name), ".."):
			problems = append(problems, name+": not a clean relative path")
			continue
		}
		mode := f.Mode()
		if mode&fs.ModeSymlink != 0 || mode&(fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket) != 0 {
			problems = append(problems, name+": a symlink or special file")
			continue
		}
		if f.FileInfo().IsDir() {
			continue
		}
		seen[name] = true
		rc, err := f.Open()
		if err != nil {
			return err
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		want, err := os.ReadFile(filepath.Join(stage, filepath.FromSlash(name)))
		if err != nil {
			problems = append(problems, name+": not in the stage")
			continue
		}
		if !bytes.Equal(got, want) {
			problems = append(problems, name+": differs from the staged file")
		}
	}
	filepath.WalkDir(stage, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(stage, p)
		if !seen[filepath.ToSlash(rel)] {
			problems = append(problems, filepath.ToSlash(rel)+": staged but not packed")
		}
		return nil
	})
	if len(problems) > 0 {
		return fmt.Errorf("%s:\n  %s", bundle, strings.Join(problems, "\n  "))
	}
	return nil
}
