package catalog

import (
	"time"

	"github.com/kgc-project/kgc/runtime/kgerr"
)

// DefaultWatchInterval is how often a server runs Check (kgmcp --watch-interval).
const DefaultWatchInterval = time.Second

// Check stats every served image file once and withdraws each package whose
// image was modified in place since it was verified (kgimg.ErrModified): from
// then on Resolve refuses it with catalog_error instead of serving bytes
// nobody verified. It returns the packages withdrawn by this call. An image
// replaced by rename is not withdrawn: the mapping still holds the verified
// file (a reload, SIGHUP, or a restart serves the new one).
func (c *Catalog) Check() []*Package {
	var out []*Package
	for _, p := range c.Packages {
		if p.Withdrawn() != nil {
			continue
		}
		if err := p.Img.CheckFile(); err != nil {
			var e error = kgerr.New(kgerr.CatalogError, "the image of %s was modified in place while being served (%v); the package is withdrawn until kgmcp reloads or restarts", p.SnapshotID(), err).
				WithHint("replace images by writing a new file and renaming it over the old one, then send kgmcp SIGHUP")
			if c.withdraw(p, e) {
				c.log.Error("image modified in place; package withdrawn", "path", p.Path, "snapshotId", p.SnapshotID(), "error", err.Error())
				out = append(out, p)
			}
		}
	}
	return out
}

// CheckText proves every package's stored text and JSON valid
// (kgimg.CheckText: what kgc verify checks beyond Open) and withdraws each
// package that fails, as Check does (a format 3 image is left to Ready,
// which checks its text before it is first served), so that an image whose checksum was
// resealed over bad bytes answers catalog_error instead of serving them. It
// reads every image's text once: servers run it off the request path, after
// start. It returns the packages withdrawn.
func (c *Catalog) CheckText() []*Package {
	var out []*Package
	for _, p := range c.Packages {
		if p.Withdrawn() != nil || p.Img.Lazy() {
			continue // a lazily verified image has its text checked by Ready
		}
		if err := p.Img.CheckText(); err != nil {
			if c.withdraw(p, kgerr.New(kgerr.CatalogError, "the image of %s holds stored text that is not valid (%v); the package is withdrawn", p.SnapshotID(), err).
				WithHint("run kgc verify on the image and rebuild it with kgc build")) {
				c.log.Error("image holds invalid text; package withdrawn", "path", p.Path, "snapshotId", p.SnapshotID(), "error", err.Error())
				out = append(out, p)
			}
		}
	}
	return out
}

// withdraw withdraws p with err (a catalog_error) unless it already is; it
// reports whether this call withdrew it.
func (c *Catalog) withdraw(p *Package, err error) bool { return p.withdrawn.CompareAndSwap(nil, &err) }

// withdrawn returns the first withdrawal among a snapshot's packages,
// verifying each on first use (Package.Ready).
func (s *Snapshot) withdrawn() error {
	for _, p := range s.Packages {
		if err := p.Ready(); err != nil {
			return err
		}
	}
	return nil
}

// ServedPublishers returns the served packages whose manifests declare
// publisher relations (the publisherRelations artifact), in catalog order:
// the only ones that can assert a relation about another package's
// standard. Only they are verified (on first use), not the whole catalog.
func (c *Catalog) ServedPublishers() []*Package {
	var out []*Package
	for _, p := range c.publishers {
		if p.Ready() == nil {
			out = append(out, p)
		}
	}
	return out
}

// Holding returns the served packages that may hold a node with the CASE
// UUID identifier or the CASE URI uri (their catalog parts say so:
// kgimg.Image.MayHold), in catalog order, verifying only those (on first
// use): where an outside reference can resolve.
func (c *Catalog) Holding(uri, identifier string) []*Package {
	var out []*Package
	for _, p := range c.Packages {
		if p.Img.MayHold(identifier, uri) && p.Ready() == nil {
			out = append(out, p)
		}
	}
	return out
}

// Served returns the packages a request may read: those Ready answers nil
// for (verifying each on first use), in catalog order.
func (c *Catalog) Served() []*Package {
	out := make([]*Package, 0, len(c.Packages))
	for _, p := range c.Packages {
		if p.Ready() == nil {
			out = append(out, p)
		}
	}
	return out
}
