#!/bin/sh
# The script of the kgc GitHub Action (action.yml): validate the graph packages
# of a package repository with findings as GitHub annotations, build each into
# a .kgimg image and verify it. Inputs come from the environment:
#
#   KGC_PACKAGES   package directories, space-separated globs (default data/graph_packages/*/*)
#   KGC_PROFILES   profile root (default config/profiles)
#   KGC_PROMPTS    prompt-config root (default: none)
#   KGC_OUTPUT     where the images go (default build)
#   KGC_BIN        a kgc binary; without it kgc is built from the action's checkout
#
# Exit status: 0 every package valid and built; 1 findings (annotated) or a
# corrupt image; 2 could not run. The image paths are written to
# $GITHUB_OUTPUT as `images` (space-separated) when it is set.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
packages=${KGC_PACKAGES:-data/graph_packages/*/*}
profiles=${KGC_PROFILES:-config/profiles}
output=${KGC_OUTPUT:-build}
kgc=${KGC_BIN:-}
if [ -z "$kgc" ]; then
	kgc=${RUNNER_TEMP:-/tmp}/kgc-action-bin
	(cd "$here" && go build -o "$kgc" ./cmd/kgc) || { echo "::error title=kgc::could not build kgc"; exit 2; }
fi
# shellcheck disable=SC2086 # the globs expand here
set -- $packages
if [ "$#" -eq 0 ] || [ ! -e "$1" ]; then
	echo "::error title=kgc::no package matches $packages"
	exit 2
fi
prompts=
[ -n "${KGC_PROMPTS:-}" ] && prompts="--prompts $KGC_PROMPTS"
# shellcheck disable=SC2086
"$kgc" validate --error-format github-actions --profiles "$profiles" $prompts "$@"
status=$?
[ "$status" -ne 0 ] && exit "$status"
mkdir -p "$output"
# shellcheck disable=SC2086
"$kgc" build --error-format github-actions --profiles "$profiles" $prompts -o "$output" "$@" || exit $?
"$kgc" verify "$output"/*.kgimg || exit $?
if [ -n "${GITHUB_OUTPUT:-}" ]; then
	echo "images=$(ls "$output"/*.kgimg | tr '\n' ' ' | sed 's/ $//')" >> "$GITHUB_OUTPUT"
fi
