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
			if p.withdrawn.CompareAndSwap(nil, &e) {
				c.log.Error("image modified in place; package withdrawn", "path", p.Path, "snapshotId", p.SnapshotID(), "error", err.Error())
				out = append(out, p)
			}
		}
	}
	return out
}

// withdrawn returns the first withdrawal among a snapshot's packages.
func (s *Snapshot) withdrawn() error {
	for _, p := range s.Packages {
		if err := p.Withdrawn(); err != nil {
			return err
		}
	}
	return nil
}
