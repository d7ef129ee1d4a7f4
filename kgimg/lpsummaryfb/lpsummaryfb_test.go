package lpsummaryfb

import (
	"reflect"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/lpsummary"
	"github.com/kgc-project/kgc/schema/manifest"
)

func ptr[T any](v T) *T { return &v }

// summaries covers every field both present and absent, lists nil, empty and
// full, so a wrong field number or a lost presence bit shows.
func summaries() []*lpsummary.Summary {
	full := &lpsummary.Summary{
		EligibleSfisPerRelationship: []lpsummary.RelationshipCount{{Label: "buildsTowards", Count: 12}, {Label: "relatesTo", Count: 0}},
		ExclusionReasonCounts:       []lpsummary.ExclusionCount{{Label: "buildsTowards", Reason: "no_grade", Count: 3}},
		TotalSfisConsidered:         ptr[int64](40), TotalSfisEligible: ptr[int64](0), TotalSfisExcluded: ptr[int64](3),
		ValidationPassed: ptr(true), SemanticValidationPerformed: ptr(false), PedagogicalCorrectnessEstablished: ptr(false),
		SemanticScopeNotice:    "scope",
		ValidationWarningCount: 7, ValidationWarningExcerpts: []string{"a", ""}, ValidationWarningsExcerpted: true,
		ValidationWarningsOmitted: 2, UnresolvedClaimCount: ptr[int64](0), UnresolvedSfiCount: ptr[int64](5),
		RelationshipWarningCount: 9, RelationshipsWithWarningsCount: 4,
	}
	for i, k := range manifest.LPObjectCountKeys {
		if i%3 != 0 {
			*full.ObjectCounts.Field(k) = ptr(int64(i))
		}
	}
	empty := &lpsummary.Summary{
		EligibleSfisPerRelationship: []lpsummary.RelationshipCount{}, ExclusionReasonCounts: []lpsummary.ExclusionCount{},
		ValidationWarningExcerpts: []string{}, SemanticScopeNotice: lpsummary.DefaultScopeNotice,
	}
	return []*lpsummary.Summary{full, empty, {}}
}

func build(s *lpsummary.Summary) *kgfb.CompiledProgressionSummary {
	b := flatbuffers.NewBuilder(256)
	b.Finish(Build(b, s))
	return kgfb.GetRootAsCompiledProgressionSummary(b.FinishedBytes(), 0)
}

// TestRoundTrip: Decode gives back exactly what Build was given, and Check
// accepts it and refuses any other summary.
func TestRoundTrip(t *testing.T) {
	for i, s := range summaries() {
		c := build(s)
		got, err := Decode(c)
		if err != nil {
			t.Fatalf("summary %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Errorf("summary %d: decoded\n%+v\nwant\n%+v", i, got, s)
		}
	}
}

// TestDecodeRefusesUnknownObjectCount: a crafted object count key is an error.
func TestDecodeRefusesUnknownObjectCount(t *testing.T) {
	b := flatbuffers.NewBuilder(256)
	key := b.CreateString("made_up")
	kgfb.ProgressionObjectCountStart(b)
	kgfb.ProgressionObjectCountAddKey(b, key)
	oc := kgfb.ProgressionObjectCountEnd(b)
	kgfb.CompiledProgressionSummaryStartObjectCountsVector(b, 1)
	b.PrependUOffsetT(oc)
	vec := b.EndVector(1)
	kgfb.CompiledProgressionSummaryStart(b)
	kgfb.CompiledProgressionSummaryAddObjectCounts(b, vec)
	b.Finish(kgfb.CompiledProgressionSummaryEnd(b))
	if _, err := Decode(kgfb.GetRootAsCompiledProgressionSummary(b.FinishedBytes(), 0)); err == nil {
		t.Fatal("an unknown object count was accepted")
	}
}
