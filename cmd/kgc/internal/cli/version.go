package cli

import "github.com/kgc-project/kgc/internal/version"

// kgcVersion returns the version kgc reports (see internal/version).
func kgcVersion() string { return version.String() }
