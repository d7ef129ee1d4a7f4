// Package compare builds the parts of compare_framework_evidence's answer
// that rest on the packages themselves: a section's matches with their
// hierarchy paths and its warnings, the fixed disclosures, and the
// publisher-asserted alignments between the compared frameworks (kept apart
// from the search matches: the publisher's facts, not retrieval). The search
// each section runs, the request and the result ceiling stay in
// runtime/query.
package compare
