package profilefb

import (
	"errors"
	"fmt"
	"reflect"
	"sort"

	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/profile"
)

// Targets returns what the facet-normalised key names under kind, in
// ascending order: the indexes of the grade mappings (GradeName,
// NormalizedGrade), statement types (StatementTypeName) or normalized subjects
// (NormalizedSubject) it belongs to, or [0] for a SubjectName. key must
// already be folded with textnorm.Facet; nil when the profile has no such key.
// It is a binary search over cp's keys, read in place.
func Targets(cp *kgfb.CompiledProfile, kind kgfb.ProfileKeyKind, key string) []int {
	n := cp.KeysLength()
	var k kgfb.ProfileKey
	cmp := func(i int) int {
		cp.Keys(&k, i)
		if k.Kind() != kind {
			if k.Kind() < kind {
				return -1
			}
			return 1
		}
		s := k.Key()
		switch {
		case string(s) < key:
			return -1
		case string(s) > key:
			return 1
		}
		return 0
	}
	i := sort.Search(n, func(i int) bool { return cmp(i) >= 0 })
	var out []int
	for ; i < n && cmp(i) == 0; i++ {
		out = append(out, int(k.Target()))
	}
	return out
}

// Check reports how cp differs from p, the profile it must be the compiled
// form of: nil when Decode(cp) equals p and cp's keys are exactly p's, sorted.
// kgc verify runs it against the image's profile_json.
func Check(cp *kgfb.CompiledProfile, p *profile.Profile) error {
	if !reflect.DeepEqual(Decode(cp), p) {
		return errors.New("the compiled profile is not the embedded profile")
	}
	want := keysOf(p)
	if cp.KeysLength() != len(want) {
		return fmt.Errorf("the compiled profile has %d keys, the embedded profile %d", cp.KeysLength(), len(want))
	}
	var k kgfb.ProfileKey
	for i, w := range want {
		cp.Keys(&k, i)
		if k.Kind() != w.kind || string(k.Key()) != w.key || k.Target() != w.target {
			return fmt.Errorf("the compiled profile's key %d is %v %q → %d, want %v %q → %d", i, k.Kind(), k.Key(), k.Target(), w.kind, w.key, w.target)
		}
	}
	return nil
}
