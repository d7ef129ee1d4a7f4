#!/bin/sh
# Builds the release binaries: static (CGO_ENABLED=0), -trimpath, no build ID,
# the version stamped with -ldflags, for every platform below, into
# $DIST/<os>-<arch>/{kgc,kgmcp}[.exe], with $DIST/SHA256SUMS.
#
#   tools/dist.sh                 # VERSION defaults to `git describe --tags --always --dirty`
#   tools/dist.sh --check         # build twice (the second with a fresh build cache) and
#                                 # require identical bytes
set -eu
cd "$(dirname "$0")/.."
GO=${GO:-go}
DIST=${DIST:-dist}
VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}
PLATFORMS=${PLATFORMS:-"linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64"}

build() { # build OUTDIR
	out=$1
	rm -rf "$out"
	for p in $PLATFORMS; do
		os=${p%/*}
		arch=${p#*/}
		ext=
		[ "$os" = windows ] && ext=.exe
		for cmd in kgc kgmcp; do
			CGO_ENABLED=0 GOOS=$os GOARCH=$arch GOFLAGS=-buildvcs=false "$GO" build -trimpath \
				-ldflags "-s -w -buildid= -X github.com/kgc-project/kgc/internal/version.Version=$VERSION" \
				-o "$out/$os-$arch/$cmd$ext" "./cmd/$cmd"
		done
	done
	(cd "$out" && find . -type f ! -name SHA256SUMS | sort | sed 's|^\./||' | xargs sha256sum > SHA256SUMS)
}

if [ "${1:-}" = --check ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	build "$tmp/a"
	GOCACHE="$tmp/cache" build "$tmp/b"
	if cmp -s "$tmp/a/SHA256SUMS" "$tmp/b/SHA256SUMS"; then
		echo "reproducible: two builds of $VERSION give the same bytes"
		cat "$tmp/a/SHA256SUMS"
	else
		echo "NOT reproducible:" >&2
		diff "$tmp/a/SHA256SUMS" "$tmp/b/SHA256SUMS" >&2
		exit 1
	fi
	exit 0
fi
build "$DIST"
echo "built $VERSION into $DIST/:"
cat "$DIST/SHA256SUMS"
