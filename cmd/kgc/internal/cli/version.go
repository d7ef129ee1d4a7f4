package cli

import "github.com/kgc-project/kgc/internal/version"

// Version returns the version kgc reports (see internal/version).
func Version() string { return version.String() }
