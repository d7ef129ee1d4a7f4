package query

import (
	"github.com/kgc-project/kgc/runtime/resource"

	"context"
	"errors"

	"github.com/kgc-project/kgc/runtime/catalog"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/prompt"
	"github.com/kgc-project/kgc/schema/manifest"
)

// ErrUnknownPrompt is returned by GetPrompt for a name no prompt has.
var ErrUnknownPrompt = errors.New("query: unknown prompt")

// Prompts returns the nine prompts (docs/reference/prompts.md), in the
// contract's order.
func (s *Service) Prompts() []prompt.Def { return prompt.Defs() }

// Prompts are the prompts every Service renders (GetPrompt).
func Prompts() []prompt.Def { return prompt.Defs() }

// PromptNames lists the registered prompts' names.
func PromptNames() []string {
	defs := prompt.Defs()
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Name
	}
	return out
}

// GetPrompt renders one prompt (docs/reference/prompts.md) with its string arguments:
// it validates them (*prompt.ArgError), resolves the package(s) they name,
// gates on rights (prompt_access_denied) and capabilities, merges each
// package's embedded prompt config, and returns the one user message with
// its metadata. Nothing is generated and no evidence query runs. A ctx that
// has ended is its error.
func (s *Service) GetPrompt(ctx context.Context, name string, args map[string]string) (*prompt.Rendered, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d, ok := prompt.Lookup(name)
	if !ok {
		return nil, ErrUnknownPrompt
	}
	v, err := d.Parse(args)
	if err != nil {
		return nil, err
	}
	pkgs, err := s.promptPackages(d, v)
	if err != nil {
		return nil, err
	}
	facts := make([]*prompt.Package, len(pkgs))
	for i, p := range pkgs {
		if facts[i], err = s.promptPackage(p); err != nil {
			return nil, err
		}
	}
	result, err := prompt.Render(d, v, facts)
	return own(s, result, err)
}

// promptPackages resolves the packages a prompt's arguments name, in
// argument order.
func (s *Service) promptPackages(d *prompt.Def, v prompt.Values) ([]*catalog.Package, error) {
	resolve := func(fwArg, snapArg string) (*catalog.Package, error) {
		p, err := s.cat.Resolve(v.Str(fwArg), v.Str(snapArg), manifest.GraphAcademicStandards)
		if kgerr.CodeOf(err) == kgerr.AmbiguousFramework {
			e := *err.(*kgerr.Error)
			e.Hint = "name one of these snapshots in the " + snapArg + " argument"
			return nil, &e
		}
		return p, err
	}
	switch d.Name {
	case "administrator_alignment_review":
		if v.Str("source_framework_id") == v.Str("target_framework_id") {
			return nil, kgerr.New(kgerr.InvalidComparisonSelection, "source_framework_id and target_framework_id are both %s", v.Str("source_framework_id")).
				WithHint("name two different frameworks")
		}
		src, err := resolve("source_framework_id", "source_snapshot_id")
		if err != nil {
			return nil, err
		}
		tgt, err := resolve("target_framework_id", "target_snapshot_id")
		if err != nil {
			return nil, err
		}
		return []*catalog.Package{src, tgt}, nil
	case "cross_framework_comparison":
		pkgs, err := s.comparePackages(CompareRequest{FrameworkIDs: v.List("framework_ids"), SnapshotIDs: v.List("snapshot_ids")})
		if kgerr.CodeOf(err) == kgerr.AmbiguousFramework {
			e := *err.(*kgerr.Error)
			e.Hint = "name one of these snapshots in the snapshot_ids argument"
			return nil, &e
		}
		return pkgs, err
	}
	p, err := resolve("framework_id", "snapshot_id")
	if err != nil {
		return nil, err
	}
	return []*catalog.Package{p}, nil
}

// promptPackage is what the prompt library knows of a package, its embedded
// prompt config decoded and checked once (prompt_configuration_error when it
// does not decode).
func (s *Service) promptPackage(p *catalog.Package) (*prompt.Package, error) {
	type built struct {
		pkg *prompt.Package
		err error
	}
	b := s.memo.get("prompt/"+p.GraphPackageID(), func() any {
		pkg, err := resource.PromptPackage(p, s.limits())
		return built{pkg, err}
	}).(built)
	return b.pkg, b.err
}
