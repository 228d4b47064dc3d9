#!/usr/bin/env bash
# CI for the readers in other languages and the browser solver, on a fresh
# Debian 12 machine, as root, after `make data` (bin/pdbgen and data/*.pdb):
#
#   1. installs what they need: chromium (the browser test), a JDK 17,
#      libzstd-jni-java and Debian's Maven with the plugins and JUnit 5 that
#      `mvn test` uses offline (the Java reader), Debian's python3-numpy,
#      python3-zstandard and python3-pytest (the Python reader, run with
#      /usr/bin/python3: PyPI is not reachable; python3-setuptools and
#      python3-venv to install it as a user would), Node.js and npm if missing, then
#      `npm ci` in readers/js (fzstd) and web (puppeteer-core, which downloads
#      no browser: it drives /usr/bin/chromium);
#   2. runs the JavaScript tests (npm test = node --test), the Java tests
#      (readers/java/test.sh: mvn test offline), the Python tests (pytest and a
#      pip install into a venv), the cross-check against pdbgen (scripts/check-readers.sh)
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
pkgs=(chromium libzstd-jni-java
	maven libmaven-resources-plugin-java libmaven-compiler-plugin-java libsurefire-java libmaven-jar-plugin-java junit5
	python3-numpy python3-zstandard python3-pytest python3-setuptools python3-venv)
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
echo "== Python reader: pytest"
/usr/bin/python3 -m pytest -q readers/python
echo "== Python reader: pip install into a venv, lookup as pdbgen"
venv=$(mktemp -d)
/usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/pip" install -q --no-build-isolation --no-index ./readers/python
printf '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n1 2 3 4 5 6 7 8 9 10 0 11 13 14 15 12\n0 1 2 3 5 6 7 4 9 10 11 8 13 14 15 12\n' >"$venv/boards.txt"
(cd "$venv" && bin/python -m tilepdb lookup "$OLDPWD"/data/15-663_*.pdb <boards.txt) >"$venv/py.out"
bin/pdbgen lookup data/15-663_*.pdb <"$venv/boards.txt" | cmp - "$venv/py.out"
rm -rf "$venv"
echo "== cross-check against pdbgen lookup"
scripts/check-readers.sh
echo "== browser test (headless Chromium; the 24-puzzle needs the 24-6666 set: about 60 s CPU, 0.5 GiB)"
[ -e data/24-6666.set.json ] || bin/pdbgen build --preset 24-6666 -o data --quiet >/dev/null
CHROMIUM=${CHROMIUM:-/usr/bin/chromium} node web/test/web-test.mjs
