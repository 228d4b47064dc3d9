#!/usr/bin/env bash
# Numbers for the readers (after make data and npm ci in readers/js): per reader,
# open+verify time of each default table (best of 3 in one process), lookups/s
# over the 6-6-3 set (checked and fast path), and peak RSS of the whole run
# (/usr/bin/time -v). The browser figure (page load to Korf #1 solved) is
# printed by make web-test.
set -euo pipefail
cd "$(dirname "$0")/.."
D=${DATA:-data} # the tables to time (DATA=dir for tables built elsewhere)
jar=${ZSTD_JNI_JAR:-/usr/share/java/zstd-jni.jar}
out=readers/java/build/bench-classes
rm -rf "$out" && mkdir -p "$out"
javac -encoding UTF-8 -d "$out" -cp "$jar" readers/java/src/main/java/tilepdb/*.java readers/java/src/test/java/tilepdb/Bench.java
for set in "$D/8puzzle.pdb" "$D/15-555_1-2-3-4-7.pdb $D/15-555_5-6-9-10-13.pdb $D/15-555_8-11-12-14-15.pdb" \
	"$D/15-663_1-5-6-9-10-13.pdb $D/15-663_7-8-11-12-14-15.pdb $D/15-663_2-3-4.pdb"; do
	for r in js java; do
		echo "== $r: $set"
		case $r in
		js) cmd=(node readers/js/bench.mjs) ;;
		java) cmd=(java -cp "$out:$jar" tilepdb.Bench) ;;
		esac
		# shellcheck disable=SC2086
		/usr/bin/time -v "${cmd[@]}" $set 2>"$out/time.txt"
		grep -E "Maximum resident" "$out/time.txt" | sed 's/^\s*/peak RSS (KiB): /; s/Maximum resident set size (kbytes): //'
	done
done
