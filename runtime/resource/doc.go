// Package resource resolves the resources of one package
// (docs/reference/resources.md): an address already parsed (runtime/uri)
// becomes a document — the raw bytes of a manifest, profile or artifact under
// the closed exposure policy, or a record derived from the image (a
// standard, its provenance, its components, a diagram, a relationship) —
// with its metadata and the artifacts it comes from, under the package's
// rights and the resource size limits. The catalog-level documents and the
// read itself stay in runtime/query.
package resource
