#!/usr/bin/env bash
# CI for the readers in other languages and the browser solver, on a fresh
# Debian 12 machine, as root, after `make data` (bin/pdbgen and data/*.pdb):
#
#   1. installs what they need: chromium (the browser test), a JDK 17 and
#      libzstd-jni-java (the Java reader), Node.js and npm if missing, then
#      `npm ci` in readers/js (fzstd) and web (puppeteer-core, which downloads
#      no browser: it drives /usr/bin/chromium);
#   2. runs the JavaScript tests (npm test = node --test), the Java tests
#      (plain javac/java), the cross-check against pdbgen (scripts/check-readers.sh)
#      and the browser test (web/test/web-test.mjs).
#
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

if [ ! -x bin/pdbgen ] || [ ! -e data/15-663_2-3-4.pdb ]; then
	echo "ci-readers: run make data first" >&2
	exit 2
fi

apt_get() { apt-get -o DPkg::Lock::Timeout=600 "$@"; }
apt_get update -q
pkgs=(chromium libzstd-jni-java)
command -v javac >/dev/null || pkgs+=(openjdk-17-jdk-headless)
command -v node >/dev/null || pkgs+=(nodejs)
command -v npm >/dev/null || pkgs+=(npm)
apt_get install -y -q --no-install-recommends "${pkgs[@]}"

export PUPPETEER_SKIP_DOWNLOAD=1
(cd readers/js && npm ci --no-audit --no-fund)
(cd web && npm ci --no-audit --no-fund)

echo "== JavaScript reader: npm test"
(cd readers/js && npm test)
echo "== Java reader: tests"
readers/java/test.sh
echo "== cross-check against pdbgen lookup"
scripts/check-readers.sh
echo "== browser test (headless Chromium; the 24-puzzle needs the 24-6666 set: about 60 s CPU, 0.5 GiB)"
[ -e data/24-6666.set.json ] || bin/pdbgen build --preset 24-6666 -o data --quiet >/dev/null
CHROMIUM=${CHROMIUM:-/usr/bin/chromium} node web/test/web-test.mjs
