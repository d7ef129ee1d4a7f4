#!/bin/sh
# Builds the MCPB bundle: stages manifest.json, the release binaries of
# $DIST (default dist/, from tools/dist.sh), a launcher choosing the binary
# for the host (run by sh; it copes with an unpacking that dropped the
# binaries' execute bits), the images (default build/*.kgimg) and a README;
# validates and packs it with the pinned official @anthropic-ai/mcpb CLI
# (tools/mcpclients); then reopens the archive and checks it against the stage
# (tools/mcpbcheck).
#
#   tools/mcpb.sh [OUT.mcpb]      # default dist/kgmcp.mcpb
set -eu
cd "$(dirname "$0")/.."
GO=${GO:-go}
DIST=${DIST:-dist}
IMAGES=${IMAGES:-build}
VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}
OUT=${1:-dist/kgmcp.mcpb}
STAGE=${STAGE:-dist/mcpb-stage}
KEEP_STAGE=${KEEP_STAGE:-}
./tools/install-mcpclients.sh >/dev/null || { echo "mcpb: the pinned npm tools are unavailable (node and npm are needed)" >&2; exit 2; }
MCPB=tools/mcpclients/node_modules/.bin/mcpb

rm -rf "$STAGE"
mkdir -p "$STAGE/server" "$STAGE/images"
found=0
for d in "$DIST"/*-*/; do
	[ -d "$d" ] || continue
	plat=$(basename "$d")
	for f in "$d"kgmcp "$d"kgmcp.exe; do
		[ -f "$f" ] || continue
		ext=
		case "$f" in *.exe) ext=.exe ;; esac
		cp "$f" "$STAGE/server/kgmcp-$plat$ext"
		found=1
	done
done
[ "$found" = 1 ] || { echo "mcpb: no kgmcp binary under $DIST/<os>-<arch>/ (run make dist)" >&2; exit 2; }
set -- "$IMAGES"/*.kgimg
[ -f "$1" ] || { echo "mcpb: no image (*.kgimg) in $IMAGES: build yours with kgc build, then IMAGES=DIR make mcpb" >&2; exit 2; }
cp "$@" "$STAGE/images/"
cat > "$STAGE/server/kgmcp.sh" <<'SH'
#!/bin/sh
# Runs the kgmcp binary built for this host (macOS and Linux). The manifest
# starts this launcher as `/bin/sh kgmcp.sh`, so it needs no execute bit.
# Some hosts unpack a bundle without the modes it stores (Claude Desktop on
# macOS writes every file 0600: modelcontextprotocol/mcpb#294), so a binary
# that is not executable gets its owner's execute bit back; where that fails
# (a read-only or foreign-owned install) a private copy runs instead, from a
# fresh directory (mktemp -d, umask 077) removed once the server has exited.
# Standard output is the MCP channel: messages go to standard error only.
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd) || exit 1
case "$(uname -s)" in Darwin) os=darwin ;; *) os=linux ;; esac
case "$(uname -m)" in arm64|aarch64) arch=arm64 ;; *) arch=amd64 ;; esac
bin=$here/kgmcp-$os-$arch
if [ ! -f "$bin" ]; then
	echo "kgmcp: this bundle has no binary for $os-$arch ($bin)" >&2
	exit 1
fi
[ -x "$bin" ] || chmod u+x "$bin" 2>/dev/null
if [ ! -x "$bin" ]; then
	umask 077
	copy=
	cache=${XDG_CACHE_HOME:-${HOME:+$HOME/.cache}}
	for base in "${TMPDIR:-/tmp}" "$cache"; do
		[ -n "$base" ] || continue
		[ "$base" != "$cache" ] || mkdir -p "$base" 2>/dev/null
		d=$(mktemp -d "${base%/}/kgmcp.XXXXXXXX" 2>/dev/null) || continue
		# -x after chmod: also false where the directory is mounted noexec.
		if cp "$bin" "$d/kgmcp" 2>/dev/null && chmod 700 "$d/kgmcp" 2>/dev/null && [ -x "$d/kgmcp" ]; then
			copy=$d
			break
		fi
		rm -rf "$d"
	done
	if [ -z "$copy" ]; then
		echo "kgmcp: $bin is not executable and no private copy could be made (under \$TMPDIR or ~/.cache); run: chmod u+x '$bin'" >&2
		exit 126
	fi
	echo "kgmcp: $bin is not executable and its mode cannot be changed; running a private copy from $copy" >&2
	# Removes the copy once the server (this process, after exec) has exited.
	pid=$$
	(
		trap '' HUP INT TERM
		while kill -0 "$pid" 2>/dev/null; do sleep 1; done
		rm -rf "$copy"
	) </dev/null >/dev/null 2>&1 &
	bin=$copy/kgmcp
fi
exec "$bin" "$@"
SH
chmod 755 "$STAGE/server/kgmcp.sh" "$STAGE"/server/kgmcp-*
cat > "$STAGE/README.md" <<MD
# kgmcp $VERSION

Read-only MCP server over curriculum knowledge-graph images (.kgimg), serving the
images in images/ over stdio. See https://github.com/kgc-project/kgc.
MD
semver=$(echo "$VERSION" | sed 's/^v//')
case "$semver" in [0-9]*.[0-9]*.[0-9]*) ;; *) semver="0.0.0-$semver" ;; esac
win=
[ -f "$STAGE/server/kgmcp-windows-amd64.exe" ] && win='"platform_overrides": {"win32": {"command": "${__dirname}/server/kgmcp-windows-amd64.exe", "args": ["${__dirname}/images"]}},'
cat > "$STAGE/manifest.json" <<JSON
{
  "manifest_version": "0.3",
  "name": "kgmcp",
  "display_name": "Curriculum knowledge graphs (kgmcp)",
  "version": "$semver",
  "description": "Read-only, rights-aware retrieval over curriculum knowledge-graph packages: standards, learning components, learning progressions.",
  "author": {"name": "kgc project"},
  "server": {
    "type": "binary",
    "entry_point": "server/kgmcp.sh",
    "mcp_config": {
      $win
      "command": "/bin/sh",
      "args": ["\${__dirname}/server/kgmcp.sh", "\${__dirname}/images"]
    }
  },
  "tools_generated": true,
  "prompts_generated": true,
  "compatibility": {"platforms": ["darwin", "linux", "win32"]}
}
JSON
"$MCPB" validate "$STAGE/manifest.json"
mkdir -p "$(dirname "$OUT")"
rm -f "$OUT"
"$MCPB" pack "$STAGE" "$OUT"
"$GO" run ./tools/mcpbcheck "$OUT" "$STAGE"
# The bundle is checked against the stage; the stage is not a product.
[ -n "$KEEP_STAGE" ] || rm -rf "$STAGE"
