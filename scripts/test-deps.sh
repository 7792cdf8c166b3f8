#!/usr/bin/env bash
# Runs before `npm test` (npm's pretest): the suites need Debian's Chromium (browser and end-to-end
# tests), Sphinx and MkDocs (integration tests that build tiny sites), Python's venv, pip, setuptools
# and wheel (the Python package pip-installed offline into a virtual environment), nginx (doclens behind
# a caching reverse proxy) and redis-server (replicas sharing a cache and limits). Installs what is missing when it can; otherwise names each missing package
# and the command that installs it, and stops at once.
set -euo pipefail

missing=()
if [ -z "${CHROME_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
command -v sphinx-build >/dev/null || missing+=(python3-sphinx)
command -v mkdocs >/dev/null || missing+=(mkdocs)
/usr/bin/python3 -c 'import pip' 2>/dev/null || missing+=(python3-pip)
/usr/bin/python3 -c 'import setuptools' 2>/dev/null || missing+=(python3-setuptools)
/usr/bin/python3 -c 'import wheel' 2>/dev/null || missing+=(python3-wheel)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || missing+=(nginx)
command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
[ ${#missing[@]} -eq 0 ] && exit 0

can_install=false
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then can_install=true; fi
if [ "$can_install" = false ]; then
  for package in "${missing[@]}"; do
    echo "npm test needs the Debian package ${package}: install it with: sudo apt-get install ${package}" >&2
  done
  exit 1
fi

echo "npm test: installing ${missing[*]} (Debian packages the tests need)" >&2
# Packages such as nginx start their service on install; the tests start their own on loopback.
no_services=false
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && no_services=true
fi
trap 'if [ "$no_services" = true ]; then rm -f /usr/sbin/policy-rc.d; fi' EXIT
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
