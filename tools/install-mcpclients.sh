#!/usr/bin/env bash
# Installs the pinned third-party MCP clients (the TypeScript SDK client and the
# inspector CLI) into tools/mcpclients/node_modules from package-lock.json.
# Skips the install when node_modules already matches the lock file.
# Exit 0 when the clients are ready, 3 when node or npm is missing or the
# install failed (the tests that need them then skip with a visible message).
set -u
cd "$(dirname "$0")/mcpclients" || exit 3
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "tools/install-mcpclients.sh: node and npm are needed for the third-party client tests (install Debian's nodejs and npm)" >&2
  exit 3
fi
stamp=node_modules/.kgc-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "tools/install-mcpclients.sh: installing the pinned npm MCP clients into tools/mcpclients/node_modules (npm ci, from the npm registry)" >&2
if ! npm ci --no-audit --no-fund --loglevel=error >&2; then
  echo "tools/install-mcpclients.sh: npm ci failed" >&2
  exit 3
fi
echo "$want" > "$stamp"
