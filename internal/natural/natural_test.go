package natural

import (
	"slices"
	"testing"
)

func TestCompare(t *testing.T) {
	got := []string{"B5.1.3.1.10", "B5.1.3.1.2", "b5.1.3.1.1", "CLO58", "CLO9", "CLO100"}
	slices.SortStableFunc(got, Compare)
	want := []string{"b5.1.3.1.1", "B5.1.3.1.2", "B5.1.3.1.10", "CLO9", "CLO58", "CLO100"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestCompareGrades: the order of a real export's grades (first-seen: 09,
// 10, 11, 12, 03, …) and of string-sorted statistics (10, 11, 12, 3, …)
// becomes school order.
func TestCompareGrades(t *testing.T) {
	got := []string{"09", "10", "11", "12", "03", "04", "K", "Grade 2", "PK", "Adult", "HS"}
	slices.SortStableFunc(got, CompareGrades)
	want := []string{"PK", "K", "Grade 2", "03", "04", "09", "10", "11", "12", "Adult", "HS"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
