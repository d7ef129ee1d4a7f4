#!/usr/bin/env bash
# Installs flatc 2.0.8 (Debian's flatbuffers-compiler) when it is missing.
# Exit 0 when flatc is available afterwards, 3 when it could not be installed.
set -u
want="flatc version 2.0.8"
if command -v flatc >/dev/null 2>&1; then
  have=$(flatc --version)
  [ "$have" = "$want" ] && exit 0
  echo "tools/install-flatc.sh: found '$have', the generated code is made with '$want'" >&2
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "tools/install-flatc.sh: flatc is missing; installing Debian's flatbuffers-compiler with apt-get (running as root)" >&2
  if apt-get install -y -q flatbuffers-compiler >/dev/null 2>&1 ||
     { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q flatbuffers-compiler >/dev/null 2>&1; }; then
    command -v flatc >/dev/null 2>&1 && exit 0
  fi
fi
echo "tools/install-flatc.sh: flatc is not installed and could not be installed (install Debian's flatbuffers-compiler)" >&2
exit 3
