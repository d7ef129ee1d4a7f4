#!/usr/bin/env bash
# Installs the pinned third-party MCP clients (the TypeScript SDK client, the
# inspector CLI and the MCPB packer) for tools/mcpclients from package-lock.json.
#
# Like Go's module cache, one install serves every checkout on the machine: it
# is made once per lock file in $KGC_NPM_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/kgc/mcpclients/<sha256 of the lock file>), and
# tools/mcpclients/node_modules is a symbolic link to it. Without a cache
# directory (no KGC_NPM_CACHE, XDG_CACHE_HOME or HOME), or where it cannot be
# written, node_modules is installed in place instead.
# Skips the install when node_modules already matches the lock file.
# Exit 0 when the clients are ready, 3 when node or npm is missing or the
# install failed (the tests that need them then skip with a visible message).
set -u
cd "$(dirname "$0")/mcpclients" || exit 3
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "tools/install-mcpclients.sh: node and npm are needed for the third-party client tests (install Debian's nodejs and npm)" >&2
  exit 3
fi
stamp=.kgc-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "node_modules/$stamp" ] && [ "$(cat "node_modules/$stamp")" = "$want" ]; then
  exit 0
fi

# install DIR: npm ci of the pinned lock file into DIR/node_modules, stamped.
install() {
  echo "tools/install-mcpclients.sh: installing the pinned npm MCP clients into $1/node_modules (npm ci, from the npm registry)" >&2
  [ "$1" = . ] || cp package.json package-lock.json "$1/" || return 1
  if ! (cd "$1" && npm ci --no-audit --no-fund --loglevel=error >&2); then
    echo "tools/install-mcpclients.sh: npm ci failed" >&2
    return 1
  fi
  echo "$want" > "$1/node_modules/$stamp"
}

base=${XDG_CACHE_HOME:-${HOME:+$HOME/.cache}}
cache=${KGC_NPM_CACHE:-${base:+$base/kgc/mcpclients}}
shared=${cache:+$cache/$want} # empty without a home: installed in place
if [ -n "$shared" ] && [ ! -f "$shared/node_modules/$stamp" ] && mkdir -p "$cache" 2>/dev/null && tmp=$(mktemp -d "$cache/.install-XXXXXX" 2>/dev/null); then
  # Installed aside, then renamed into place: a concurrent install from another
  # checkout either loses the rename (its copy is dropped) or wins it.
  install "$tmp" || { rm -rf "$tmp"; exit 3; }
  mv -T "$tmp" "$shared" 2>/dev/null || rm -rf "$tmp"
fi
rm -rf node_modules
# The shared directory is named by the lock file's hash; its stamp marks a
# finished install.
if [ -n "$shared" ] && [ -f "$shared/node_modules/$stamp" ] && ln -s "$shared/node_modules" node_modules; then
  exit 0
fi
install . || exit 3
