package query

import (
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/schema/rights"
)

// Rights is a package's RightsPolicy, as the manifest states it.
type Rights = rights.Policy

// catalogSha256 hashes the canonical JSON of the public catalog, once.
func (s *Service) catalogSha256() string {
	return s.memo.get("catalogSha256", func() any { return record.CatalogDigest(s.catalogObject()) }).(string)
}

// catalogObject is the public catalog document, built once.
func (s *Service) catalogObject() Catalog {
	return s.memo.get("catalog", func() any { return record.CatalogOf(s.cat) }).(Catalog)
}
