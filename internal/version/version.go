// Package version is the one version both binaries report (kgc --version,
// kgmcp --version, the MCP serverInfo.version, the compiler recorded in an
// image): the release version set at link time by `make dist`, else the
// module version Go stamped from the VCS (builds with -buildvcs), else
// "devel".
package version

import "runtime/debug"

// Version is set at link time:
//
//	-ldflags "-X github.com/kgc-project/kgc/internal/version.Version=v1.2.3"
var Version string

// String returns the version.
func String() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
