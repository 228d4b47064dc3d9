#!/usr/bin/env bash
# Cross-checks the JavaScript, Java and Python readers against pdbgen (make readers-test):
#
#  1. lookup on every default table in data/ and on the 15-555 and 15-663 sets,
#     on blank-first tables and a custom-goal exact table built into a temp dir
#     (in format 1 too when pdbgen can write both formats),
#     with BOARDS random boards per table and per set (readers/testdata/gen-boards.mjs:
#     valid, unsolvable, in every accepted syntax, and bad lines): stdout, the
#     "line N: ..." errors, the final error line ("<prog> lookup: ..." without
#     the program name and any "(usage: ...)") and the exit status must be
#     identical;
#  2. the input rules of `pdbgen lookup` (cmd/pdbgen/boards.go): unsolvable
#     boards answered "unsolvable" with exit 0 for exact tables and additive
#     tables and sets, lines over 4096 bytes of any length (over 1 MiB too)
#     reported and skipped, a UTF-8 byte-order mark at the start skipped,
#     the lines after a bad line still answered, lines parsed untrimmed, a
#     cell left empty by a comma refused and an uppercase X taken as the blank;
#     answers written as they come (an answer is out before the next line is
#     typed); SIGTERM: "interrupted", exit 143, what was answered kept;
#  3. every file of the readers kit (readers/testdata/kit) and, once merged, of
#     the conformance kits (format/testdata/conformance and
#     conformance-zero-aware): all four give the same outcome (ok, or the
#     same error class) and exit status;
#  1c. zero-aware tables (SPEC.md section 11, when pdbgen builds them): the
#     15-663 set built --zero-aware (formats 2 and 1, and mixed with a plain
#     table), a 3x3 and a blank-first 4x3 table, and a set file of the
#     zero-aware 6-6-3 tables looked up by transpose (the blank transposed too);
#  4. set, usage and I/O errors (tables that do not combine, a directory, a
#     named pipe, a device where a table is read): same exit status and final
#     error line;
#  1b. boards past 5x5: small 6x6, 7x7 and 8x8 tables built here (their
#     cell sets reach past cell 31), alone, as sets and through a 6x6 set
#     file (transpose, flip-tb), random and unsolvable boards;
#  5. set files (format/SPEC.md section 10): lookup through the set kit's good
#     files (readers/testdata/sets), through a set file of the default 6-6-3
#     tables used by transpose (every part symmetric) written here, alone and
#     with its tables also given directly, and through any data/*.set.json;
#     a catalogue (SPEC.md section 12, set file version 2) of the 6-6-3
#     tables as they are and transposed (two partitions; zero-aware too),
#     alone, with its tables, on unsolvable boards, with another table
#     (refused), and its values the maximum of the two partitions' sums;
#     every file of the set kit: stdout, "line N:" errors, final error line
#     and exit status identical (the exit status only where each language's
#     JSON parser words the error: check "status" in index.tsv; for check
#     "spec", where pdbgen does not yet follow SPEC.md, the readers must give
#     index.tsv's message and exit status).
#
# Needs bin/pdbgen and data/*.pdb (make data), node >= 18 with `npm ci` done in
# readers/js, a JDK 17 with Debian's libzstd-jni-java, and Python >= 3.11 with numpy and
# zstandard (Debian: python3-numpy python3-zstandard; PYTHON, default /usr/bin/python3,
# runs readers/python/src). Fails on any difference.
# Environment: BOARDS (per table and set, default 3000), PDBGEN, DATA, CONFORMANCE
# (defaults bin/pdbgen, data, format/testdata/conformance).
set -euo pipefail
cd "$(dirname "$0")/.."
BOARDS=${BOARDS:-3000}
PDBGEN=${PDBGEN:-bin/pdbgen}
DATA=${DATA:-data}
CONFORMANCE=${CONFORMANCE:-format/testdata/conformance}
JS=(node readers/js/cli.mjs)
JAVA=(readers/java/tilepdb)
PY=("${PYTHON:-/usr/bin/python3}" -m tilepdb)
export PYTHONPATH="$PWD/readers/python/src${PYTHONPATH:+:$PYTHONPATH}"

for f in "$PDBGEN" "$DATA/8puzzle.pdb" "$DATA/15-663_2-3-4.pdb"; do
	[ -e "$f" ] || { echo "check-readers: $f missing: run make data first" >&2; exit 2; }
done
# compile the Java reader now, so that its "compiling" line does not land in
# the stderr compared below
"${JAVA[@]}" --compile-only
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail=0
checks=0
# show_diff A B: the first lines of diff A B. A check that fails must not end
# the script (set -e, pipefail: diff exits 1, and head may close the pipe
# early), so that every check runs and the count at the end is complete.
show_diff() {
	diff "$1" "$2" | head -5 || true
}
# compare NAME INPUT FILE...: runs the four lookups and compares them.
compare() {
	local name=$1 input=$2
	shift 2
	local codes=()
	local i=0
	for prog in pdbgen js java py; do
		case $prog in
		pdbgen) cmd=("$PDBGEN" lookup) ;;
		js) cmd=("${JS[@]}" lookup) ;;
		java) cmd=("${JAVA[@]}" lookup) ;;
		py) cmd=("${PY[@]}" lookup) ;;
		esac
		set +e
		"${cmd[@]}" "$@" <"$input" >"$tmp/$prog.out" 2>"$tmp/$prog.err"
		codes[i]=$?
		set -e
		grep '^line ' "$tmp/$prog.err" >"$tmp/$prog.lines" || true
		final_line "$prog" <"$tmp/$prog.err" >"$tmp/$prog.final"
		i=$((i + 1))
	done
	checks=$((checks + 1))
	local ok=1
	for prog in js java py; do
		if ! cmp -s "$tmp/pdbgen.out" "$tmp/$prog.out"; then
			echo "FAIL $name: $prog stdout differs from pdbgen:"; show_diff "$tmp/pdbgen.out" "$tmp/$prog.out"; ok=0
		fi
		if ! cmp -s "$tmp/pdbgen.lines" "$tmp/$prog.lines"; then
			echo "FAIL $name: $prog 'line N:' errors differ from pdbgen:"; show_diff "$tmp/pdbgen.lines" "$tmp/$prog.lines"; ok=0
		fi
		if ! cmp -s "$tmp/pdbgen.final" "$tmp/$prog.final"; then
			echo "FAIL $name: $prog final error line differs from pdbgen:"; show_diff "$tmp/pdbgen.final" "$tmp/$prog.final"; ok=0
		fi
	done
	if [ "${codes[0]}" != "${codes[1]}" ] || [ "${codes[0]}" != "${codes[2]}" ] || [ "${codes[0]}" != "${codes[3]}" ]; then
		echo "FAIL $name: exit status pdbgen ${codes[0]}, js ${codes[1]}, java ${codes[2]}, py ${codes[3]}"; ok=0
	fi
	if [ -n "${WANT_UNSOLVABLE:-}" ] && { [ "${codes[0]}" != 0 ] || ! grep -q "	unsolvable\$" "$tmp/pdbgen.out"; }; then
		echo "FAIL $name: pdbgen should answer 'unsolvable' and exit 0 (exit ${codes[0]}); the check compares nothing"; ok=0
	fi
	if [ $ok = 1 ]; then
		echo "ok   $name: $(wc -l <"$tmp/pdbgen.out") values ($(grep -c "	unsolvable\$" "$tmp/pdbgen.out") unsolvable), $(wc -l <"$tmp/pdbgen.lines") bad lines, exit ${codes[0]}$([ -s "$tmp/pdbgen.final" ] && printf ', "%s"' "$(cat "$tmp/pdbgen.final")")"
	else
		fail=$((fail + 1))
	fi
}

# final_line PROG < STDERR: the last "<prog> lookup: ..." line without that
# prefix and without a "(usage: ...)" (usage texts differ), or nothing.
# pdbgen's one "hint:" line (a board unsolvable for the table's goal but
# solvable in the other goal convention) is not an error and the readers do
# not print it: it is left out.
final_line() {
	local name
	case $1 in pdbgen) name=pdbgen ;; js) name=tilepdb-js ;; java) name=tilepdb-java ;; py) name=tilepdb-py ;; esac
	{ grep "^$name lookup: " | grep -v "^$name lookup: hint: " || true; } | tail -n 1 | sed -e "s/^$name lookup: //" -e 's/ (usage: [^)]*)$//'
}

# class FILE PROG: the outcome of opening FILE (ok, format, checksum, unsupported, io).
outcome() {
	local out code
	set +e
	case $2 in
	pdbgen) out=$("$PDBGEN" lookup "$1" </dev/null 2>&1) ;;
	js) out=$("${JS[@]}" lookup "$1" </dev/null 2>&1) ;;
	java) out=$("${JAVA[@]}" lookup "$1" </dev/null 2>&1) ;;
	py) out=$("${PY[@]}" lookup "$1" </dev/null 2>&1) ;;
	esac
	code=$?
	set -e
	case "$out" in
	*"invalid table file"*) echo "format $code" ;;
	*"unsupported table file"*) echo "unsupported $code" ;;
	*" mismatch"*) echo "checksum $code" ;;
	*"is not supported"*) echo "unsupported-version $code" ;;
	*) if [ $code = 0 ]; then echo "ok 0"; else echo "other $code"; fi ;;
	esac
}

boards() { # N [unsolvable|valid] -> file of BOARDS lines (a new seed for each check: boards runs in a subshell)
	seed=$((checks + 2))
	node readers/testdata/gen-boards.mjs "$1" "$BOARDS" "$seed" ${2:-} >"$tmp/boards.$seed.txt"
	echo "$tmp/boards.$seed.txt"
}

echo "== building blank-first and custom-goal tables into $tmp"
"$PDBGEN" build --quiet -o "$tmp/bf" --preset 8puzzle,15-555 --goal blank-first >/dev/null
"$PDBGEN" build --quiet -o "$tmp/custom" --board 3x3 --tiles 1-8 --goal "1 2 3 8 0 4 7 6 5" >/dev/null
"$PDBGEN" build --quiet -o "$tmp/custom" --board 4x3 --tiles 1,2,3,4 --goal blank-first >/dev/null
if [[ $("$PDBGEN" build -h 2>&1 || true) == *-zero-aware* ]]; then
	# zero-aware tables (SPEC.md section 11): the 15-663 set (about 10 s),
	# a 3x3 and a blank-first 4x3 table, and the 15-663 set in format 1
	"$PDBGEN" build --quiet -j 2 -o "$tmp/za" --preset 15-663 --zero-aware >/dev/null
	"$PDBGEN" build --quiet -o "$tmp/za" --board 3x3 --tiles 1,2,3 --zero-aware >/dev/null
	"$PDBGEN" build --quiet -o "$tmp/za" --board 4x3 --tiles 1,2,3,4 --goal blank-first --zero-aware >/dev/null
	"$PDBGEN" build --quiet -j 2 -o "$tmp/za1" --preset 15-663 --zero-aware --format 1 >/dev/null
fi
if [[ $("$PDBGEN" build -h 2>&1 || true) == *-format* ]]; then
	# pdbgen writes both formats: also the other one of the default
	"$PDBGEN" build --quiet -o "$tmp/v1" --preset 8puzzle,15-555 --format 1 >/dev/null
	"$PDBGEN" build --quiet -o "$tmp/v2" --preset 8puzzle,15-555 --format 2 >/dev/null
fi

echo "== lookup: each table"
for f in "$DATA"/*.pdb "$tmp"/bf/*.pdb "$tmp"/custom/*.pdb $(ls "$tmp"/v1/*.pdb "$tmp"/v2/*.pdb "$tmp"/za/*.pdb "$tmp"/za1/*.pdb 2>/dev/null); do
	case $f in *8puzzle* | */custom/3x3* | */za/3x3*) n=9 ;; */custom/4x3* | */za/4x3*) n=12 ;; *) n=16 ;; esac
	compare "$(basename "$(dirname "$f")")/$(basename "$f")" "$(boards $n)" "$f"
done
echo "== lookup: sets"
compare "set 15-555" "$(boards 16)" "$DATA"/15-555_*.pdb
compare "set 15-663" "$(boards 16)" "$DATA"/15-663_*.pdb
compare "set 15-555 blank-first" "$(boards 16)" "$tmp"/bf/15-555*.pdb
compare "set 15-663 (two tables)" "$(boards 16)" "$DATA"/15-663_2-3-4.pdb "$DATA"/15-663_7-8-11-12-14-15.pdb
if [ -d "$tmp/v1" ]; then
	compare "set 15-555 format 1" "$(boards 16)" "$tmp"/v1/15-555*.pdb
	compare "set 15-555 formats 1 and 2 mixed" "$(boards 16)" "$tmp"/v1/15-555_1-*.pdb "$tmp"/v2/15-555_5-*.pdb "$tmp"/v1/15-555_8-*.pdb
fi
if [ -d "$tmp/za" ]; then
	compare "set 15-663 zero-aware" "$(boards 16)" "$tmp"/za/15-663_*.pdb
	compare "set 15-663 zero-aware, format 1" "$(boards 16)" "$tmp"/za1/15-663_*.pdb
	compare "set 15-663 zero-aware and plain mixed" "$(boards 16)" "$tmp"/za/15-663_2-3-4_za.pdb "$DATA"/15-663_1-5-6-9-10-13.pdb "$tmp"/za/15-663_7-8-11-12-14-15_za.pdb
	WANT_UNSOLVABLE=1
	compare "unsolvable boards, set 15-663 zero-aware" "$(boards 16 unsolvable)" "$tmp"/za/15-663_*.pdb
	WANT_UNSOLVABLE=
fi
printf '1 2 3 4 5 6 7 8 0\n' >"$tmp/one.txt"
for len in 1048575 1048576; do
	{ printf '1 2 3 4 5 6 7 8 0\n'; head -c $len /dev/zero | tr '\0' '1'; printf '\n1 2 3 4 5 6 7 0 8\n'; } >"$tmp/long.txt"
	compare "input line of $len bytes" "$tmp/long.txt" "$DATA/8puzzle.pdb"
done
printf '1 2 3 4 5 6 7 0 8' >"$tmp/nonl.txt"
compare "no newline at the end" "$tmp/nonl.txt" "$DATA/8puzzle.pdb"

echo "== lookup: boards past 5x5 (6x6, 7x7, 8x8; cells 32..63 in the cell sets)"
# Small tables (2-3 tiles, a second each) built here: single tables, sets of
# tables given directly, and a 6x6 set file whose parts are looked up
# through transpose and flip-tb.
big="$tmp/big"
for spec in "6x6 1,2,3 blank-last" "6x6 2,3,4 blank-last" "6x6 4,5,6 blank-last" "6x6 29,35,34 blank-first" \
	"7x7 1,2,8 blank-first" "7x7 3,4,5 blank-first" "7x7 40,47,48 blank-first" "7x7 1,2,8 blank-last" \
	"8x8 55,62,63 blank-last" "8x8 1,2,9 blank-last" "8x8 31,32,33 blank-last"; do
	read -r size tiles goal <<<"$spec"
	"$PDBGEN" build --quiet -o "$big" --board "$size" --tiles "$tiles" --goal "$goal" >/dev/null
done
for f in "$big"/*.pdb; do
	case $(basename "$f") in 6x6*) n=36 ;; 7x7*) n=49 ;; 8x8*) n=64 ;; esac
	compare "big/$(basename "$f")" "$(boards $n)" "$f"
done
compare "set 6x6 1-2-3 4-5-6" "$(boards 36)" "$big"/6x6_1-2-3.pdb "$big"/6x6_4-5-6.pdb
compare "set 7x7 blank-first 1-2-8 3-4-5 40-47-48" "$(boards 49)" "$big"/7x7-bf_*.pdb
compare "set 8x8 1-2-9 31-32-33 55-62-63" "$(boards 64)" "$big"/8x8_*.pdb
bsha() { "$PDBGEN" info --json "$big/$1" | sed -e 's/.*"raw_sha256":"\([0-9a-f]*\)".*/\1/'; }
cat >"$big/6x6-sym.set.json" <<JSON
{"tilepdb_set": 1, "width": 6, "height": 6, "goal": [$(seq -s, 1 35),0], "parts": [
 {"tiles":[1,2,3],"table":"6x6_1-2-3.pdb","table_tiles":[1,2,3],"symmetry":"identity","tile_map":[1,2,3],"table_raw_sha256":"$(bsha 6x6_1-2-3.pdb)"},
 {"tiles":[7,13,19],"table":"6x6_2-3-4.pdb","table_tiles":[2,3,4],"symmetry":"transpose","tile_map":[2,3,4],"table_raw_sha256":"$(bsha 6x6_2-3-4.pdb)"},
 {"tiles":[31,32,33],"table":"6x6_1-2-3.pdb","table_tiles":[1,2,3],"symmetry":"flip-tb","tile_map":[1,2,3],"table_raw_sha256":"$(bsha 6x6_1-2-3.pdb)"},
 {"tiles":[4,5,6],"table":"6x6_4-5-6.pdb","table_tiles":[4,5,6],"symmetry":"identity","tile_map":[4,5,6],"table_raw_sha256":"$(bsha 6x6_4-5-6.pdb)"}]}
JSON
if ! "$PDBGEN" lookup "$big/6x6-sym.set.json" </dev/null >/dev/null 2>&1; then
	echo "FAIL pdbgen refuses $big/6x6-sym.set.json"; fail=$((fail + 1))
fi
compare "set file 6x6 (transpose, flip-tb)" "$(boards 36)" "$big/6x6-sym.set.json"
WANT_UNSOLVABLE=1
compare "unsolvable boards, set file 6x6" "$(boards 36 unsolvable)" "$big/6x6-sym.set.json"
compare "unsolvable boards, 7x7 table" "$(boards 49 unsolvable)" "$big"/7x7_1-2-8.pdb
compare "unsolvable boards, 8x8 set" "$(boards 64 unsolvable)" "$big"/8x8_*.pdb
WANT_UNSOLVABLE=
printf '%s 0\n' "$(seq -s ' ' 1 35)" >"$tmp/one36.txt"
compare "tables of two board sizes (6x6 and 7x7)" "$tmp/one36.txt" "$big"/6x6_1-2-3.pdb "$big"/7x7_1-2-8.pdb
compare "boards of 25 cells for a 6x6 table" "$(boards 25)" "$big"/6x6_1-2-3.pdb

echo "== lookup: input rules (unsolvable boards, long lines, BOM, lines after a bad line)"
WANT_UNSOLVABLE=1
compare "unsolvable boards, exact 8puzzle" "$(boards 9 unsolvable)" "$DATA/8puzzle.pdb"
compare "unsolvable boards, additive table 15-663_2-3-4" "$(boards 16 unsolvable)" "$DATA/15-663_2-3-4.pdb"
compare "unsolvable boards, additive set 15-555" "$(boards 16 unsolvable)" "$DATA"/15-555_*.pdb
compare "unsolvable boards, additive set 15-663" "$(boards 16 unsolvable)" "$DATA"/15-663_*.pdb
compare "unsolvable boards, additive set 15-555 blank-first" "$(boards 16 valid)" "$tmp"/bf/15-555*.pdb
compare "unsolvable boards, exact custom goal" "$(boards 9 valid)" "$tmp"/custom/3x3*.pdb
WANT_UNSOLVABLE=
bom=$'\xef\xbb\xbf'
x4096=$(head -c 4096 /dev/zero | tr '\0' ' ')
# case NAME: lines of the input (printf format), checked on the 8-puzzle table
input_case() {
	local name=$1
	shift
	printf "$@" >"$tmp/case.txt"
	compare "$name" "$tmp/case.txt" "$DATA/8puzzle.pdb"
}
input_case "line of 3 MiB, then more lines" '1 2 3 4 5 6 7 8 0\n%s\n2 1 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 0 8\n' "$(head -c 3145728 /dev/zero | tr '\0' '7')"
input_case "line of 3 MiB without a newline at the end" '1 2 3 4 5 6 7 8 0\n%s' "$(head -c 3145728 /dev/zero | tr '\0' '7')"
input_case "blank and comment lines over 4096 bytes" '%s\n#%s\n1 2 3 4 5 6 7 8 0\n' "$x4096 " "$x4096"
input_case "lines of 4096 bytes (with CRLF) and 4097 bytes" '1 2 3 4 5 6 7 8 0%s\r\n1 2 3 4 5 6 7 8 0%s\r\n1 2 3 4 5 6 7 0 8\n' "${x4096:17}" "${x4096:16}"
input_case "byte-order mark before a board" '%s1 2 3 4 5 6 7 8 0\r\n2 1 3 4 5 6 7 8 0\n' "$bom"
input_case "byte-order mark before a comment" '%s# boards\n1 2 3 4 5 6 7 0 8\n' "$bom"
input_case "byte-order mark alone" '%s' "$bom"
input_case "byte-order mark on line 2 (a bad board)" '1 2 3 4 5 6 7 8 0\n%s1 2 3 4 5 6 7 0 8\n' "$bom"
input_case "byte-order mark and a line of 4094 bytes" '%s1 2 3 4 5 6 7 8 0%s\n' "$bom" "${x4096:19}"
input_case "byte-order mark and a line of 4095 bytes" '%s1 2 3 4 5 6 7 8 0%s\n' "$bom" "${x4096:18}"
input_case "byte-order mark and a line of 4096 bytes (with CRLF)" '%s1 2 3 4 5 6 7 8 0%s\r\n2 1 3 4 5 6 7 8 0\n' "$bom" "${x4096:17}"
input_case "byte-order mark and a line of 4097 bytes" '%s1 2 3 4 5 6 7 8 0%s\n1 2 3 4 5 6 7 0 8\n' "$bom" "${x4096:16}"
input_case "lines after bad lines" '1 2 3 4 5 6 7 8 0\n1 2 3\n1 2 3 4 5 6 7 0 8\n%s\n2 1 3 4 5 6 7 8 0\nx x\n1 2 3 4 5 6 0 7 8\n\n# end\n1 2 3 4 5 6 7 8 9\n1 2 3 4 5 6 7 8 0\n' "$x4096 1"
input_case "lines parsed untrimmed (no-break space, vertical tab)" '\xc2\xa01 2 3 4 5 6 7 8 0\n\v1 2 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 8 0\f\n\t1 2 3 4 5 6 7 8 0 \n'
input_case "empty input" ''
input_case "cells left empty by a comma, uppercase X as the blank" '1,,2,3,4,5,6,7,0\n,1,2,3,4,5,6,7,8,0\n1,2,3,4,5,6,7,8,0,\n1 2 3 4 5 6 7 8 0 ,\t\n1, \t,2\n , , \nX,1,2,3,4,5,6,7,8\n1 2 3 4 5 6 7 8 X\n'

echo "== lookup: answers as they come, and SIGTERM"
# live PROG: feeds one board through a FIFO and waits (up to 20 s) for its
# answer while the input is still open; then a second board, then SIGTERM.
live() {
	local prog=$1 cmd pid i fifo="$tmp/fifo"
	case $prog in pdbgen) cmd=("$PDBGEN" lookup) ;; js) cmd=("${JS[@]}" lookup) ;; java) cmd=("${JAVA[@]}" lookup) ;; py) cmd=("${PY[@]}" lookup) ;; esac
	rm -f "$fifo"
	mkfifo "$fifo"
	"${cmd[@]}" "$DATA/8puzzle.pdb" <"$fifo" >"$tmp/live.out" 2>"$tmp/live.err" &
	pid=$!
	exec 3>"$fifo"
	printf '1 2 3 4 5 6 7 8 0\n' >&3
	for i in $(seq 200); do [ -s "$tmp/live.out" ] && break; sleep 0.1; done
	local first
	first=$(cat "$tmp/live.out")
	printf '2 1 3 4 5 6 7 8 0\n' >&3
	for i in $(seq 100); do [ "$(wc -l <"$tmp/live.out")" -ge 2 ] && break; sleep 0.1; done
	kill -TERM "$pid" 2>/dev/null || true # already gone: the checks below say so
	set +e
	wait "$pid"
	local code=$?
	set -e
	exec 3>&-
	checks=$((checks + 1))
	local want=$'1 2 3 4 5 6 7 8 0\t0\n2 1 3 4 5 6 7 8 0\tunsolvable'
	if [ "$first" != $'1 2 3 4 5 6 7 8 0\t0' ]; then
		echo "FAIL live $prog: no answer while the input is open (got '$first')"; fail=$((fail + 1))
	elif [ "$(cat "$tmp/live.out")" != "$want" ] || [ $code != 143 ] || [[ $(tail -n 1 "$tmp/live.err") != *" lookup: interrupted" ]]; then
		echo "FAIL live $prog: after SIGTERM: exit $code, stdout '$(cat "$tmp/live.out")', stderr '$(cat "$tmp/live.err")'"; fail=$((fail + 1))
	else
		echo "ok   live $prog: each answer out before the next line; SIGTERM: exit 143, 'interrupted'"
	fi
}
for prog in pdbgen js java py; do live $prog; done

echo "== set and usage errors (exit status, final error line)"
compare "overlapping tables" "$tmp/one.txt" "$DATA"/15-555_1-2-3-4-7.pdb "$DATA"/15-555_1-2-3-4-7.pdb
compare "exact table in a set" "$tmp/one.txt" "$DATA"/8puzzle.pdb "$DATA"/15-663_2-3-4.pdb
compare "different boards" "$tmp/one.txt" "$DATA"/15-663_2-3-4.pdb "$tmp"/custom/4x3*.pdb
compare "different goals" "$tmp/one.txt" "$DATA"/15-555_1-2-3-4-7.pdb "$tmp"/bf/15-555-bf_*13-14*.pdb
compare "missing file" "$tmp/one.txt" "$tmp/nonexistent.pdb"
compare "no files" "$tmp/one.txt"
compare "directory" "$tmp/one.txt" "$DATA"
rm -f "$tmp/fifo.pdb"
mkfifo "$tmp/fifo.pdb"
compare "named pipe" "$tmp/one.txt" "$tmp/fifo.pdb"
compare "named pipe after a good table" "$tmp/one.txt" "$DATA/8puzzle.pdb" "$tmp/fifo.pdb"
[ -c /dev/null ] && compare "character device" "$tmp/one.txt" /dev/null

echo "== set files (SPEC.md section 10)"
SETS=readers/testdata/sets
for f in "$SETS"/good-*.set.json; do
	case $f in *3x2*) n=6 ;; *) n=16 ;; esac
	compare "set file $(basename "$f")" "$(boards $n)" "$f"
done
# transposed_set DIR SUFFIX NAME: copies the 15-663 tables
# 15-663_*SUFFIX.pdb (from $DATA, or from $tmp/za for the zero-aware ones,
# SUFFIX _za) into DIR, writes DIR/NAME.set.json with every part through
# the transpose (tiles 1,2,3,4,6,7 through the table of 1,5,6,9,10,13;
# 8,10,11,12,14,15 through 7,8,11,12,14,15; 5,9,13 through 2,3,4; for
# zero-aware tables the blank's cell is transposed too: its region in the
# table's cell set), and compares the readers on it, also on unsolvable
# boards. Then the catalogue (SPEC.md section 12, set file version 2)
# DIR/NAME-catalogue.set.json of two partitions, the tables used as they
# are and the same transposed, each table read once for two parts: its
# value is the larger of the two sums.
transposed_set() {
	local dir=$1 suffix=$2 name=$3 from=$DATA
	[ -n "$suffix" ] && from=$tmp/za
	mkdir -p "$dir"
	cp "$from"/15-663_*"$suffix".pdb "$dir/"
	local t1=15-663_1-5-6-9-10-13$suffix.pdb t2=15-663_7-8-11-12-14-15$suffix.pdb t3=15-663_2-3-4$suffix.pdb
	local h1 h2 h3
	h1=$(rawsha "$dir/$t1") h2=$(rawsha "$dir/$t2") h3=$(rawsha "$dir/$t3")
	local goal='"width": 4, "height": 4, "goal": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0]'
	local identity transposed
	identity=' {"tiles":[1,5,6,9,10,13],"table":"'$t1'","table_tiles":[1,5,6,9,10,13],"symmetry":"identity","tile_map":[1,5,6,9,10,13],"table_raw_sha256":"'$h1'"},
 {"tiles":[7,8,11,12,14,15],"table":"'$t2'","table_tiles":[7,8,11,12,14,15],"symmetry":"identity","tile_map":[7,8,11,12,14,15],"table_raw_sha256":"'$h2'"},
 {"tiles":[2,3,4],"table":"'$t3'","table_tiles":[2,3,4],"symmetry":"identity","tile_map":[2,3,4],"table_raw_sha256":"'$h3'"}'
	transposed=' {"tiles":[1,2,3,4,6,7],"table":"'$t1'","table_tiles":[1,5,6,9,10,13],"symmetry":"transpose","tile_map":[1,5,9,13,6,10],"table_raw_sha256":"'$h1'"},
 {"tiles":[8,10,11,12,14,15],"table":"'$t2'","table_tiles":[7,8,11,12,14,15],"symmetry":"transpose","tile_map":[14,7,11,15,8,12],"table_raw_sha256":"'$h2'"},
 {"tiles":[5,9,13],"table":"'$t3'","table_tiles":[2,3,4],"symmetry":"transpose","tile_map":[2,3,4],"table_raw_sha256":"'$h3'"}'
	printf '{"tilepdb_set": 1, %s, "parts": [\n%s]}\n' "$goal" "$transposed" >"$dir/$name.set.json"
	printf '{"tilepdb_set": 2, %s, "partitions": [[\n%s],\n[\n%s]]}\n' "$goal" "$identity" "$transposed" >"$dir/$name-catalogue.set.json"
	if ! "$PDBGEN" lookup "$dir/$name.set.json" </dev/null >/dev/null 2>&1; then
		echo "FAIL pdbgen refuses $dir/$name.set.json"; fail=$((fail + 1))
	fi
	compare "set file $name" "$(boards 16)" "$dir/$name.set.json"
	WANT_UNSOLVABLE=1
	compare "unsolvable boards, set file $name" "$(boards 16 unsolvable)" "$dir/$name.set.json"
	WANT_UNSOLVABLE=
	local refusal
	refusal=$("$PDBGEN" lookup "$dir/$name-catalogue.set.json" </dev/null 2>&1 >/dev/null) || true
	if [[ $refusal == *"(this reader supports 1)"* ]]; then
		echo "SKIP catalogue $name-catalogue.set.json: $PDBGEN reads set file version 1 only (catalogues come with SPEC.md section 12); not compared"
		return
	elif [ -n "$refusal" ]; then
		echo "FAIL pdbgen refuses $dir/$name-catalogue.set.json: $refusal"; fail=$((fail + 1))
	fi
	compare "catalogue $name-catalogue (identity and transposed partitions)" "$(boards 16)" "$dir/$name-catalogue.set.json"
	compare "catalogue $name-catalogue with its tables given too" "$(boards 16)" "$dir"/*"$suffix".pdb "$dir/$name-catalogue.set.json"
	WANT_UNSOLVABLE=1
	compare "unsolvable boards, catalogue $name-catalogue" "$(boards 16 unsolvable)" "$dir/$name-catalogue.set.json"
	WANT_UNSOLVABLE=
	compare "catalogue $name-catalogue with another table (refused)" "$tmp/one.txt" "$dir/$name-catalogue.set.json" "$DATA/15-555_1-2-3-4-7.pdb"
	# the catalogue's value is the larger of its two partitions' sums, and
	# on some boards each partition gives the larger one
	local prog=pdbgen b
	b=$(boards 16 valid)
	"$PDBGEN" lookup "$dir"/15-663_*"$suffix".pdb <"$b" | cut -f2 >"$tmp/cat.identity"
	"$PDBGEN" lookup "$dir/$name.set.json" <"$b" | cut -f2 >"$tmp/cat.transposed"
	"$PDBGEN" lookup "$dir/$name-catalogue.set.json" <"$b" | cut -f2 >"$tmp/cat.max"
	checks=$((checks + 1))
	if ! paste "$tmp/cat.identity" "$tmp/cat.transposed" "$tmp/cat.max" | awk -F'\t' '
		$1 == "unsolvable" { if ($3 != "unsolvable") bad++; next }
		{ m = ($1 > $2 ? $1 : $2) + 0; if ($3 + 0 != m) bad++; if ($1 + 0 > $2 + 0) i++; if ($2 + 0 > $1 + 0) t++ }
		END { if (bad || !i || !t) { printf "%d values not the maximum; identity larger on %d boards, transposed on %d\n", bad, i, t; exit 1 } }'; then
		echo "FAIL catalogue $name-catalogue: pdbgen's values are not the maximum of the two partitions"; fail=$((fail + 1))
	else
		echo "ok   catalogue $name-catalogue: pdbgen's values are the maximum of the identity and transposed sums, each partition larger on some boards"
	fi
}
rawsha() { "$PDBGEN" info --json "$1" | sed -e 's/.*"raw_sha256":"\([0-9a-f]*\)".*/\1/'; }
transposed_set "$tmp/t663" "" 15-663-transposed
compare "set file 15-663 transposed with its tables given too" "$(boards 16)" "$tmp"/t663/*.pdb "$tmp/t663/15-663-transposed.set.json"
compare "set file 15-663 transposed and a catalogue (refused)" "$tmp/one.txt" "$tmp/t663/15-663-transposed.set.json" "$tmp/t663/15-663-transposed-catalogue.set.json"
if [ -d "$tmp/za" ]; then
	transposed_set "$tmp/tza" _za 15-663-za-transposed
	for f in "$tmp"/za/*.set.json; do
		[ -e "$f" ] || continue
		compare "zero-aware set file $(basename "$f")" "$(boards 16)" "$f"
	done
fi
for f in "$DATA"/*.set.json; do
	[ -e "$f" ] || continue
	case $f in */24-*) n=25 ;; *) n=16 ;; esac
	compare "data set file $(basename "$f")" "$(boards $n)" "$f"
done
# reader_outcome NAME FILE WANT_EXIT [WANT_MESSAGE]: the exit status of the
# four (of the three readers only, with their final line, when WANT_MESSAGE
# is given) on FILE with no boards.
reader_outcome() {
	local name=$1 file=$2 want=$3 msg=${4:-}
	local prog code ok=1
	for prog in pdbgen js java py; do
		[ "$prog" = pdbgen ] && [ -n "$msg" ] && continue
		case $prog in pdbgen) cmd=("$PDBGEN" lookup) ;; js) cmd=("${JS[@]}" lookup) ;; java) cmd=("${JAVA[@]}" lookup) ;; py) cmd=("${PY[@]}" lookup) ;; esac
		set +e
		"${cmd[@]}" "$file" </dev/null >/dev/null 2>"$tmp/$prog.err"
		code=$?
		set -e
		if [ "$code" != "$want" ]; then
			echo "FAIL $name: $prog exit $code, want $want: $(tail -n 1 "$tmp/$prog.err")"; ok=0
		elif [ -n "$msg" ] && [ "$(final_line $prog <"$tmp/$prog.err")" != "$msg" ]; then
			echo "FAIL $name: $prog says '$(final_line $prog <"$tmp/$prog.err")', want '$msg'"; ok=0
		fi
	done
	checks=$((checks + 1))
	if [ $ok = 1 ]; then echo "ok   $name: exit $want"; else fail=$((fail + 1)); fi
}
while IFS=$'\t' read -r file expect code check message about; do
	case $file in '#'* | '' | good-*) continue ;; esac # good files: compared on boards above
	case $check in
	go) compare "set kit $file ($about)" "$tmp/one.txt" "$SETS/$file" ;;
	status) reader_outcome "set kit $file ($about)" "$SETS/$file" "$code" ;;
	spec)
		reader_outcome "set kit $file ($about; the readers follow SPEC.md)" "$SETS/$file" "$code" "${message//\{dir\}/$SETS}"
		set +e
		"$PDBGEN" lookup "$SETS/$file" </dev/null >/dev/null 2>&1
		[ $? = "$code" ] || echo "NOTE $file: pdbgen does not refuse it yet ($about); SPEC.md section 10 does"
		set -e
		;;
	esac
done <"$SETS/index.tsv"

echo "== kits: same outcome as pdbgen"
if [[ $("$PDBGEN" build -h 2>&1 || true) != *-format* ]]; then
	# The kits follow the SPEC revision that came with format 2 (error classes
	# unsupported and unsupported-version, strict JSON rules); an older pdbgen
	# classifies some files differently. The readers' own tests still check
	# every kit file against its index.
	echo "SKIP kits: $PDBGEN predates format 2 and the revised SPEC.md section 3; not compared"
else
	kits=(readers/testdata/kit)
	[ -d "$CONFORMANCE" ] && kits+=("$CONFORMANCE")
	[ -d "$(dirname "$CONFORMANCE")/conformance-zero-aware" ] && kits+=("$(dirname "$CONFORMANCE")/conformance-zero-aware")
	for dir in "${kits[@]}"; do
		n=0
		for f in $(find "$dir" -type f -name '*.pdb' | sort); do
			want=$(outcome "$f" pdbgen)
			for prog in js java py; do
				got=$(outcome "$f" $prog)
				if [ "$got" != "$want" ]; then
					echo "FAIL $f: pdbgen '$want', $prog '$got'"
					fail=$((fail + 1))
				fi
			done
			n=$((n + 1))
			checks=$((checks + 1))
		done
		echo "ok   $dir: $n files"
	done
fi

echo "check-readers: $((checks - fail)) passed, $fail failed"
[ $fail = 0 ]
