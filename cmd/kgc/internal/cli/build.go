package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/internal/safefile"
	"github.com/kgc-project/kgc/internal/version"
	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/kgimg/kgimgwrite"
	"github.com/kgc-project/kgc/schema/ids"
)

func runBuild(_ context.Context, env cmdEnv, args []string) int {
	var f gateFlags
	var out string
	fs := newFlagSet(env, "build", "kgc build [--profiles DIR] [--prompts DIR] [--error-format text|json|github-actions] [--max-findings N] -o DIR PACKAGE_DIR...")
	f.bind(fs)
	fs.StringVar(&out, "o", "", "directory to write <snapshot-id>.kgimg images into (required)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return ExitFailure
	}
	if err := f.check(); err != nil {
		fmt.Fprintln(env.Stderr, "kgc build:", err)
		return ExitFailure
	}
	switch {
	case out == "":
		return usageError(env, fs, "-o DIR is required (the directory the images are written into)")
	case fs.NArg() == 0:
		return usageError(env, fs, "no package directory given (a package is <root>/<framework-id>/<snapshot-id>/)")
	}
	format, _ := parseFormat(f.format)
	rep := newReporter(env, format, f.maxFindings)
	if err := f.checkProfileRoot(); err != nil {
		return rep.cannotRun("build", fs.Args(), err)
	}
	code := exitOK
	for _, dir := range fs.Args() {
		res, err := runGate(dir, f.options())
		if err != nil {
			rep.failure(dir, err)
			code = ExitFailure
			continue
		}
		pr := rep.result(res)
		if !res.Valid() {
			if code == exitOK {
				code = exitFindings
			}
			continue
		}
		img, err := buildImage(dir, res, out)
		if err != nil {
			pr.IsValid = false
			pr.Error = err.Error()
			fmt.Fprintf(env.Stderr, "kgc: %s: could not build: %v\n", dir, err)
			code = ExitFailure
			continue
		}
		pr.Image = img
	}
	rep.finish()
	return code
}

// buildImage compiles a valid package and writes its image atomically, then
// re-opens it to verify what was written.
func buildImage(dir string, res *gate.Result, out string) (*imageReport, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	// The gate has checked every file; read them as carefully again (the
	// tree could have changed since), no one larger than an image can be.
	read := func(path string) ([]byte, error) { return safefile.Read(root, path, kgimg.MaxImageSize) }
	// The image's memory is outside the Go heap: while it is built and held,
	// the heap's limit leaves it room (imageHeld).
	defer imageHeld(0)
	built, err := kgimgwrite.BuildImage(res, read, kgimgwrite.Options{Compiler: "kgc " + version.String(), Grown: imageHeld})
	if err != nil {
		return nil, err
	}
	// The image is read below only through data and the Image opened over
	// it, neither of which outlives this function.
	defer built.Release()
	imageHeld(len(built.Bytes))
	data := built.Bytes
	// The image is written to its temp file, and its digest computed, while
	// it is verified; only an image that verifies is renamed into place.
	type staging struct {
		st  *kgimgwrite.Staged
		err error
	}
	staged := make(chan staging, 1)
	go func() {
		st, err := kgimgwrite.Stage(out, kgimgwrite.ImageName(res.Manifest.SnapshotID), data)
		staged <- staging{st, err}
	}()
	digest := make(chan string, 1)
	go func() { digest <- ids.Sha256(data) }()
	img, err := kgimg.OpenBytes(data)
	if err == nil {
		err = img.VerifyDeep()
	}
	sha := <-digest
	s := <-staged
	if err != nil {
		if s.st != nil {
			s.st.Abort()
		}
		return nil, fmt.Errorf("the image just built does not verify: %w", err)
	}
	if s.err != nil {
		return nil, s.err
	}
	path, err := s.st.Commit()
	if err != nil {
		return nil, err
	}
	return &imageReport{Path: filepath.ToSlash(path), Sha256: sha, Bytes: int64(len(data))}, nil
}
