package pkggen

import "fmt"

// Shipped returns the specs of the packages that ship with the project under
// packages/ (with their profiles and prompt configs under profiles/).
func Shipped() []Spec {
	return []Spec{
		{
			FrameworkID: "kgc-sample-english-grades-1-2", VersionToken: "2026",
			Name: "kgc Sample English Curriculum, Grades 1–2", Subject: "English Language Arts",
			Jurisdiction: "Sampleland", Authority: "kgc project (sample curriculum)",
			GradeLabels: []string{"GRADE ONE", "GRADE TWO"}, Strands: 2, Standards: 3, Indicators: 3,
			Unresolved: 1, AllowBulk: true,
			Topics: []string{"phonics and letter sounds", "reading simple sentences", "listening to stories", "speaking in short sentences",
				"writing letters", "spelling common words", "vocabulary for everyday objects", "asking and answering questions"},
			Verbs: []string{"Identify", "Read aloud", "Retell", "Use", "Write", "Describe"},
		},
		{
			FrameworkID: "kgc-sample-mathematics-grades-1-3", VersionToken: "2026",
			Name: "kgc Sample Mathematics Curriculum, Grades 1–3", Subject: "Mathematics",
			Jurisdiction: "Sampleland", Authority: "kgc project (sample curriculum)",
			GradeLabels: []string{"GRADE ONE", "GRADE TWO", "GRADE THREE"}, Strands: 3, Standards: 3, Indicators: 3,
			Codes: true, CodePrefix: "M", Components: true, Progressions: true,
			Topics: []string{"counting and whole numbers", "addition and subtraction", "place value", "measurement of length",
				"telling the time", "money", "two-dimensional shapes", "patterns and sequences", "collecting and presenting data"},
			Verbs: []string{"Count", "Compare", "Represent", "Solve problems involving", "Explain", "Estimate"},
		},
	}
}

// Synthetic returns the spec of a synthetic package with about n standards items
// (10 grades; strands, standards and indicators scaled to reach n), with codes,
// learning components and progressions in compact form.
func Synthetic(n int) Spec {
	grades := 10
	per := n / grades // items per grade ≈ strands*(1+standards*(1+indicators))
	strands, standards, indicators := 2, 2, 2
	for strands*(1+standards*(1+indicators)) < per {
		switch {
		case indicators < 20:
			indicators++
		case standards < 50:
			standards++
		default:
			strands++
		}
	}
	labels := make([]string, grades)
	for i := range labels {
		labels[i] = "LEVEL " + string(rune('A'+i))
	}
	return Spec{
		FrameworkID: "kgc-synthetic-mathematics", VersionToken: "bench", Name: "kgc Synthetic Mathematics (benchmark)",
		Subject: "Mathematics", Jurisdiction: "Benchmarkland", Authority: "kgc project (synthetic)",
		GradeLabels: labels, Strands: strands, Standards: standards, Indicators: indicators,
		Codes: true, CodePrefix: "S", Components: true, Progressions: true, Compact: true,
		Topics: []string{"number", "operations", "measurement", "geometry", "data", "patterns", "ratio", "algebra"},
		Verbs:  []string{"Count", "Compare", "Represent", "Solve", "Explain"},
	}
}

// NodeID returns the node ID the generator gives the indicator at (grade,
// strand, standard, indicator) of spec.
func NodeID(spec Spec, grade, strand, standard, indicator int) string {
	return uuidFor(fmt.Sprintf("%s:g%d:s%d:k%d:i%d", spec.FrameworkID, grade, strand, standard, indicator))
}
