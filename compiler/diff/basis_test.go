package diff

import (
	"testing"

	"github.com/kgc-project/kgc/compiler/childorder"
	"github.com/kgc-project/kgc/kgimg"
)

// TestBasisNamesAgree: a package compared with an image names each order
// basis the same way, whether kgc build's ordering (childorder) or the
// image (kgimg) says it, so kgc diff never reports a basis change that is
// only a spelling.
func TestBasisNamesAgree(t *testing.T) {
	for b := childorder.Publisher; b <= childorder.CodesBelow; b++ {
		if got, want := kgimg.ChildOrder(b).Basis(), b.String(); got != want || kgimg.OrderPhrase(got) == "" {
			t.Errorf("basis %d: image says %q (%q), compiler %q", b, got, kgimg.OrderPhrase(got), want)
		}
	}
	if kgimg.OrderUnknown.Basis() != "file" || kgimg.OrderNone.Basis() != "" {
		t.Errorf("unknown %q, none %q", kgimg.OrderUnknown.Basis(), kgimg.OrderNone.Basis())
	}
}
