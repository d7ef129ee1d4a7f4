package complete

import (
	"fmt"
	"testing"
)

// TestCompletionIsBounded: at most MaxCompletions values, prefix matches
// first, the total counted.
func TestCompletionIsBounded(t *testing.T) {
	var values []string
	for i := 0; i < 150; i++ {
		values = append(values, fmt.Sprintf("label-%03d", 149-i))
	}
	values = append(values, "x-label")
	c := rank(values, "LABEL", false)
	if len(c.Values) != MaxCompletions || !c.HasMore || c.Total != 151 || c.Values[0] != "label-000" {
		t.Errorf("%d values, hasMore %v, total %d, first %s", len(c.Values), c.HasMore, c.Total, c.Values[0])
	}
	c = rank(values, "x-", false)
	if len(c.Values) != 1 || c.HasMore || c.Total != 1 {
		t.Errorf("%v", c)
	}
	if c := rank(values, "9-x", false); len(c.Values) != 0 || c.Values == nil {
		t.Errorf("%#v", c)
	}
}
