// Package standard builds the answers about one node of a framework, read
// from its image in place: a standard's record and where it sits
// (get_standard, the standard resource), its context in the hierarchy
// (get_standard_context: parents, children, ancestors, descendants, root
// paths), the learning components that support it and the standards a
// component supports, and its publisher-asserted relations
// (get_publisher_relations). Requests, routing, paging and the result
// ceiling stay in runtime/query; this package takes a resolved package and
// node and bounds, and returns the result types the contract spells.
package standard
