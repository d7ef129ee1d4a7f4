package pack

import (
	"fmt"
	"path/filepath"

	"github.com/kgc-project/kgc/compiler/gate"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/manifest"
)

// The gate proves a copy of the package that pack stages and removes; its
// findings name that copy's files. A refusal shows them as findings about the
// files the user gave, so every input keeps where its bytes came from.

// lineRef is the user's file and line one line of a packed JSONL file came
// from.
type lineRef struct {
	src  string
	line int
}

// locator returns RefusedError's Locate for a package that would have been
// written at target.
func (p *plan) locator(target, profileRoot, promptRoot string) func(finding.Finding) finding.Finding {
	byPath := map[string]*input{}
	for i := range p.inputs {
		byPath[p.inputs[i].path] = &p.inputs[i]
	}
	return func(f finding.Finding) finding.Finding {
		switch f.Artifact {
		case "profile":
			if f.Path != "" {
				f.Path = filepath.Join(profileRoot, filepath.FromSlash(f.Path))
			}
			return f
		case "promptConfig":
			if f.Path != "" {
				f.Path = filepath.Join(promptRoot, filepath.FromSlash(f.Path))
			}
			return f
		}
		in, ok := byPath[f.Path]
		switch {
		case f.Path == "":
			f.Path = target
		case ok && in.lines != nil && f.Line > 0 && f.Line <= len(in.lines):
			ref := in.lines[f.Line-1]
			f.Path, f.Line = ref.src, ref.line
		case ok && in.origin() != "":
			f.Path = in.origin()
		default:
			// The manifest, a report pack prepared, or a path the package
			// does not declare (which pack never writes).
			f.Path = filepath.Join(target, filepath.FromSlash(f.Path))
			f.Message += " (in a file kgc pack writes; it was not written)"
		}
		return f
	}
}

// origin is the user's file the input's bytes (or, with lines, its lines) came
// from: the file itself, or the export a prepared artifact repeats.
func (in *input) origin() string {
	if in.src != "" {
		return in.src
	}
	return in.from
}

// ceiling is the most bytes the gate reads of an artifact (it reports a
// larger one as file_too_large without reading it), or 0 for none: the
// built-in detailed documents and the provenance shards are read whole; the
// delivery files are streamed and other additional artifacts only hashed.
func ceiling(name string) int64 {
	if name == manifest.Nodes || name == manifest.Relationships {
		return 0
	}
	if _, shard := manifest.ShardIndex(name); shard || manifest.IsBuiltin(name) {
		return gate.MaxDocumentBytes
	}
	return 0
}

// sizeOf returns an input file's size (it must be a regular file pack may
// read).
func sizeOf(p string) (int64, error) {
	f, err := openInput(p)
	if err != nil {
		return 0, fmt.Errorf("input %s: %w", p, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("input %s: %w", p, err)
	}
	return fi.Size(), nil
}

// overCeiling returns the file_too_large finding for an input over the gate's
// ceiling for its artifact, or ok false.
func overCeiling(name, src string, size int64) (finding.Finding, bool) {
	max := ceiling(name)
	if max == 0 || size <= max {
		return finding.Finding{}, false
	}
	return finding.New(finding.FileTooLarge, "%s (%s) is %d bytes, over the validation gate's %d-byte ceiling for this artifact; nothing was copied",
		src, name, size, max).At(name, src), true
}

// oversize checks the progression exports against the ceilings of the
// artifacts prepared from them (the split files, the provenance, the final
// claims), before any is read.
func (lp *Progressions) oversize() ([]finding.Finding, error) {
	var out []finding.Finding
	for _, e := range []struct{ name, src string }{
		{manifest.LPBuildsTowards, lp.BuildsTowards}, {manifest.LPRelatesTo, lp.RelatesTo},
		{manifest.LPProvenance, lp.Provenance}, {manifest.LPFinalClaims, lp.FinalClaims},
	} {
		if e.src == "" {
			continue
		}
		size, err := sizeOf(e.src)
		if err != nil {
			return nil, err
		}
		if f, over := overCeiling(e.name, e.src, size); over {
			out = append(out, f)
		}
	}
	return out, nil
}

// tooLarge is the refusal for inputs over the gate's ceilings, in the gate's
// finding format; dir names where the package would have gone.
func tooLarge(dir string, fs []finding.Finding, keep int) error {
	res := &gate.Result{Dir: dir, Findings: finding.List{Keep: keep}}
	res.Findings.Add(fs...)
	return &RefusedError{Reason: fmt.Sprintf("%d input(s) over the validation gate's size ceilings; nothing was copied", len(fs)),
		Gate: res, locate: func(f finding.Finding) finding.Finding { return f }}
}
