#!/usr/bin/env bash
# Rebuilds the committed demo documentation (build/) from its sources (src/) with real Sphinx and MkDocs.
# Needs Debian's packages: apt-get install python3-sphinx python3-sphinx-rtd-theme furo mkdocs mkdocs-material
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src="$here/src"
out="$here/build"
for tool in sphinx-build mkdocs; do
  if ! command -v "$tool" >/dev/null; then
    echo "rebuild.sh: $tool not found; apt-get install python3-sphinx python3-sphinx-rtd-theme furo mkdocs mkdocs-material" >&2
    exit 1
  fi
done
doctrees=$(mktemp -d)
trap 'rm -rf "$doctrees"' EXIT

sphinx() { # sphinx SOURCE OUTPUT [VAR=VALUE...]
  local source=$1 output=$2
  shift 2
  env "$@" sphinx-build -q -b html -d "$doctrees/$(basename "$output")-$RANDOM" -D html_copy_source=0 "$source" "$output"
  rm -f "$output/.buildinfo"
  # Browsers take the woff2 fonts; the legacy formats the theme also ships are never fetched.
  find "$output/_static" \( -name '*.ttf' -o -name '*.eot' -o -name '*.woff' -o -name 'fontawesome-webfont.svg' \) -delete
}

rm -rf "$out"
# The subproject first: Aurora links into it through its inventory.
sphinx "$src/plugins" "$out/plugins/en/latest"
for version in latest 2.0 1.0; do
  sphinx "$src/aurora" "$out/aurora/en/$version" AURORA_DOCS_VERSION="$version" \
    AURORA_PLUGINS_INVENTORY="$out/plugins/en/latest/objects.inv"
done
sphinx "$src/aurora-es" "$out/aurora-es/es/latest"
(cd "$src/skyline" && mkdocs build -q --clean -d "$out/skyline/en/latest")
echo "rebuilt $(find "$out" -name '*.html' | wc -l) pages in $out"
