// Package diff compares two snapshots of one framework (`kgc diff`,
// docs/diff.md): standards added, removed, reworded (with a word-level
// diff), recoded, regraded, moved in the hierarchy or reidentified; learning
// components added, removed or reworded; progression edges (buildsTowards,
// relatesTo) added or removed.
//
// Nodes are paired by node ID, then, among the standards still unpaired, by
// CASE UUID, then by statement code; a key pairs two nodes only when exactly
// one unpaired node holds it on each side. Each pair records the key that
// matched it.
//
// Each side is read by Load from a package directory (through the validation
// gate: a package with error findings is refused) or a .kgimg image (mapped
// and verified by kgimg, read in place). Only a compact Snapshot is
// kept per side: per node its ID, CASE UUID, statement code, a 16-byte hash
// of the statement, an index into the distinct grade lists and its parent
// index (about 200 bytes per node with 36-character IDs), plus 12 bytes per
// progression edge. Statements are read back only for the nodes a report
// shows (added, removed and reworded ones): from the mapped image, or by
// streaming the package's nodes file again and checking each statement
// against its hash. The two packages are gated one after the other, so a
// comparison's peak heap is one gate run plus the compact old snapshot.
package diff
