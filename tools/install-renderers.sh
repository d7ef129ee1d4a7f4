#!/usr/bin/env bash
# Installs the renderers the tests look at pictures and pages with when they
# are missing: rsvg-convert (Debian's librsvg2-bin) renders kgc render's SVG
# to PNG, dot (Debian's graphviz) lays out its DOT form, chromium (Debian's
# chromium, headless) runs the browser explorer kgmcp --http serves. Without
# them those checks skip with a message.
# Exit 0 when all are available afterwards, 3 when one could not be installed.
set -u
missing=()
command -v rsvg-convert >/dev/null 2>&1 || missing+=(librsvg2-bin)
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "tools/install-renderers.sh: ${missing[*]} missing; installing Debian's ${missing[*]} with apt-get (running as root)" >&2
  if apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
     { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1; }; then
    command -v rsvg-convert >/dev/null 2>&1 && command -v dot >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1 && exit 0
  fi
fi
echo "tools/install-renderers.sh: rsvg-convert, dot or chromium is not installed and could not be installed (install Debian's librsvg2-bin, graphviz and chromium)" >&2
exit 3
