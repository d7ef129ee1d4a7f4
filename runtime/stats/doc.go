// Package stats counts what one package holds (get_framework_statistics):
// nodes and relationships by type, code presence, depths and parents,
// grades, unresolved relationships, progressions and learning components,
// each list in a stable order. It reads the image in place and keeps no
// state.
package stats
