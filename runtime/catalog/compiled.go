package catalog

import (
	"sync/atomic"

	"github.com/kgc-project/kgc/kgimg"
	"github.com/kgc-project/kgc/schema/profile"
)

// packageProfile is a package's interpretation profile in its compiled form
// (kgimg.CompiledProfile), read in place from the mapped image. Nothing about
// it is parsed or validated again: the gate did that when the image was built,
// and Open has bounded every field. The whole profile is copied into Go values
// when a request first asks for it (most answers about a package do; a
// federated text search without profile filters does not), and the code
// parent rules are compiled on first use. Values are stored only once
// complete: one cut short (a fault on an image modified in place under it,
// turned into a panic by the caller's guard) leaves nothing behind, and the
// next caller tries again. Two first callers may both build them; either
// result is the same.
type packageProfile struct {
	compiled atomic.Pointer[kgimg.CompiledProfile]
	decoded  atomic.Pointer[profile.Profile]
	rules    atomic.Pointer[[]*profile.Regex]
}

// compiledProfile returns the package's compiled profile, resolved over the
// mapped image on first use.
func (p *Package) compiledProfile() *kgimg.CompiledProfile {
	if cp := p.profile.compiled.Load(); cp != nil {
		return cp
	}
	cp := p.Img.CompiledProfile()
	p.profile.compiled.CompareAndSwap(nil, &cp)
	return p.profile.compiled.Load()
}

// Profile returns the package's interpretation profile, copied out of the
// image on first use. Callers must not modify it.
func (p *Package) Profile() *profile.Profile {
	if d := p.profile.decoded.Load(); d != nil {
		return d
	}
	p.profile.decoded.CompareAndSwap(nil, p.compiledProfile().Decode())
	return p.profile.decoded.Load()
}

// ProfileTargets resolves a facet-normalised key (textnorm.Facet of a request
// value) against the profile's names of one kind, in place: the indexes of the
// grade mappings, statement types or normalized subjects it names (see
// kgimg.CompiledProfile.Targets), nil when none.
func (p *Package) ProfileTargets(kind kgimg.ProfileKeyKind, key string) []int {
	return p.compiledProfile().Targets(kind, key)
}

// ParentRule returns the compiled regex of code parent rule i, or nil when
// there is no such rule or its regex does not compile (the gate refuses such
// a profile, so only a crafted image has one).
func (p *Package) ParentRule(i int) *profile.Regex {
	rules := p.profile.rules.Load()
	if rules == nil {
		list := p.Profile().CodeSearchPolicy.CodeParentRules
		compiled := make([]*profile.Regex, len(list))
		for j, r := range list {
			if re, err := profile.CompileRegex(r.Regex); err == nil {
				compiled[j] = re
			}
		}
		p.profile.rules.CompareAndSwap(nil, &compiled)
		rules = p.profile.rules.Load()
	}
	if i < 0 || i >= len(*rules) {
		return nil
	}
	return (*rules)[i]
}
