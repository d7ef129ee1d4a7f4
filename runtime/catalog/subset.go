package catalog

// Subset returns the catalog of the frameworks keep accepts, in the same
// order, sharing c's packages and their images: for a caller granted only
// some frameworks, everything else is absent, as a framework the server
// does not serve is. Closing a subset closes nothing (c owns the images);
// c must outlive it.
func (c *Catalog) Subset(keep func(frameworkID string) bool) *Catalog {
	s := &Catalog{byID: map[string]*Framework{}, bySnapshot: map[string]*Snapshot{}, log: c.log, shared: true}
	for _, p := range c.Packages {
		if keep(p.FrameworkID()) {
			s.add(p)
		}
	}
	s.sort()
	return s
}
