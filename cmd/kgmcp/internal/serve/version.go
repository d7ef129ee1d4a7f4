package serve

import kgcversion "github.com/kgc-project/kgc/internal/version"

// version is what --version and the MCP serverInfo report.
func version() string { return kgcversion.String() }
