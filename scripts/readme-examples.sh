#!/usr/bin/env bash
# Runs the pdbgen examples of README.md and of every page of docs/ (docs/*.md,
# where README's details moved) in a fresh copy of this checkout and checks
# that they leave it as it was: no tracked file changed, no untracked file or
# folder left (git status --porcelain stays empty; data/*.pdb and
# data/*.set.json are ignored, as in any checkout after make data).
#
# An example is a line (with its "\" continuations) of a ```sh block that
# runs pdbgen or scripts/ci-tables.sh, or sets a shell variable the next
# ones of the same page use; all of a block's lines run in one shell, in
# order, in the copy, from its root (paths in the pages are from the root).
# The pages run in a fixed order (README.md, then docs/*.md sorted), so the
# output is the same from run to run; every file an example writes outside
# the copy goes under this script's temporary folder (HOME and TMPDIR).
# Each must exit 0, or 1 where the page says "exit 1" on the line or the
# comment line after it, and must not name a fixed path under /tmp (a
# scratch folder comes from mktemp -d, so that nothing is left behind
# outside it). What a line's comment, and the comment lines right after it
# that show its output ("# BOARD : ..."), say it prints must be in its
# output (stdout and stderr): a bare number ("# 31") ends an output line,
# and every "length L", "nodes K", "lower LB" or "bound B" quoted appears,
# so the figures the pages quote are re-measured on every run (they are
# exact: node counts do not depend on the machine). Skipped, with the reason printed:
#   - lines naming 24-6666, 24-best or 24-7tile: they need the 24-puzzle
#     tables (a minute of CPU and 0.5 GiB to build, six minutes for
#     24-best, half an hour and 9.8 GiB for 24-7tile; make bench-korf24
#     and make long run the first two);
#   - lines that run pdbgen-beam: the beam/ module (Apache Beam) takes
#     minutes to compile; make beam-test runs the same set-ups;
#   - lines that do not run pdbgen (make, npm, node, java, python, apt-get:
#     make readers-test and scripts/ci-readers.sh run the readers).
# The copy gets the tables of data/ (built by make data, copied, not
# rebuilt) and a bin/pdbgen built from this checkout. Takes about 20 CPU-s
# (a minute of wall time on a loaded 2-core machine).
#
# Usage: scripts/readme-examples.sh   (from any directory; make readme-test)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copy=$tmp/tilepdb
say() { printf 'readme-examples: %s\n' "$*" >&2; }

# A fresh clone of the working tree (uncommitted edits included, so that a
# README being edited is what is tested): the tracked files, committed
# into a new repository.
mkdir -p "$copy"
git -C "$root" ls-files -z | tar -C "$root" --null -T - -cf - | tar -C "$copy" -xf -
git -C "$copy" init -q
git -C "$copy" add -A
git -C "$copy" -c user.name=readme-examples -c user.email=readme@example.invalid commit -qm copy
(cd "$root" && go build -o "$copy/bin/pdbgen" ./cmd/pdbgen)
shopt -s nullglob
pdbs=("$root"/data/*.pdb)
if [ ${#pdbs[@]} -eq 0 ]; then
  say "no tables in $root/data: building the default set in the copy"
  "$copy/bin/pdbgen" build --quiet --if-needed -o "$copy/data" --manifest "$copy/data/MANIFEST.tsv"
else
  cp -p "${pdbs[@]}" "$copy/data/"
fi
shopt -u nullglob
if [ -n "$(git -C "$copy" status --porcelain)" ]; then
  say "the copy is not clean before the examples:"; git -C "$copy" status --porcelain >&2; exit 1
fi

# Extract the examples: one script per ```sh block, numbered in page order
# (block-PPP-NNN: page PPP, block NNN), so that the shell's sorted glob runs
# them in that order.
pages=(README.md)
while IFS= read -r page; do pages+=("$page"); done < <(cd "$root" && LC_ALL=C ls docs/*.md 2>/dev/null)
for p in "${!pages[@]}"; do
  awk -v dir="$tmp" -v page="$(printf '%03d' "$p")" '
    /^```sh[[:space:]]*$/ { inblock = 1; n++; file = sprintf("%s/block-%s-%03d.lines", dir, page, n); printf "" > file; next }
    /^```/ { inblock = 0; next }
    inblock {
      line = $0
      while (line ~ /\\$/ && (getline nextline) > 0) { sub(/\\$/, "", line); line = line " " nextline }
      print line >> file
    }
  ' "$root/${pages[$p]}"
done

fail=0 ran=0 skipped=0 checked=0
mkdir -p "$tmp/home" "$tmp/scratch"
lastpage=
for lines in "$tmp"/block-*.lines; do
  pageno=${lines##*/block-}; pageno=${pageno%%-*}
  page=${pages[$((10#$pageno))]}
  if [ "$pageno" != "$lastpage" ]; then
    : > "$tmp/vars.sh" # a page's variables are its own
    lastpage=$pageno
    say "$page"
  fi
  script=${lines%.lines}.sh
  : > "$script"
  mapfile -t block < "$lines"
  for i in "${!block[@]}"; do
    l=${block[$i]}
    next=${block[$((i + 1))]:-}
    case "$l" in
      ''|'#'*) continue ;;
    esac
    code=$(printf '%s' "$l" | sed -E 's/[[:space:]]+#.*$//') # without its comment
    if [[ $code == *pdbgen-beam* ]]; then
      say "skipped (pdbgen-beam, the beam/ module: make beam-test): $l"; skipped=$((skipped + 1)); continue
    fi
    if [[ $code == *24-6666* || $code == *24-best* || $code == *24-7tile* ]]; then
      say "skipped (needs the 24-puzzle tables): $l"; skipped=$((skipped + 1)); continue
    fi
    if [[ $code =~ ^[A-Za-z_][A-Za-z_0-9]*= && $code != *pdbgen* && $code != *ci-tables.sh* ]]; then
      printf '%s\n' "$l" >> "$tmp/vars.sh"; continue # a variable for the next lines and blocks
    fi
    if [[ $code != *pdbgen* && $code != *ci-tables.sh* ]]; then
      say "skipped (does not run pdbgen): $l"; skipped=$((skipped + 1)); continue
    fi
    if [[ $code =~ (^|[[:space:]=\"\'])/tmp/ ]]; then
      say "$page: names a fixed path under /tmp (use \$(mktemp -d)): $l"; fail=$((fail + 1)); continue
    fi
    ok=0
    if [[ $l == *"exit 1"* || ( $next == '#'* && $next == *"exit 1"* ) ]]; then ok=1; fi
    q=$(printf '%q' "$l")
    cat >> "$script" <<EOF
start=\$SECONDS
(
$l
) </dev/null >"\$EX_OUT" 2>&1 && code=0 || code=\$?
printf 'readme-examples: %3ds exit %d: %s\n' \$((SECONDS - start)) \$code $q >&2
if [ \$code -gt $ok ]; then printf 'readme-examples: %s: exit %d (want 0%s): %s\n' $(printf '%q' "$page") \$code "$( [ $ok = 1 ] && echo ' or 1')" $q >&2; tail -n 5 "\$EX_OUT" >&2; failed=\$((failed + 1)); fi
ran=\$((ran + 1))
EOF
    # What the line's own comment says it prints must be in its output: a
    # bare number ("# 31": the last field of an output line), or the
    # figures "length L", "nodes K", "lower LB" and "bound B" it quotes.
    comment=${l:${#code}}
    # comment lines right after it that show its output ("# BOARD : ...")
    for ((k = i + 1; k < ${#block[@]}; k++)); do
      [[ ${block[$k]} == '# '*' : '* ]] || break
      comment+=" ${block[$k]}"
    done
    expect=()
    if [[ $comment =~ ^[[:space:]]*#[[:space:]]*([0-9]+)[[:space:]]*$ ]]; then
      expect=("${BASH_REMATCH[1]}")
      pat="(^|[[:space:]])${expect[0]}\$"
      printf 'grep -Eq -- %q "$EX_OUT" || { say %q; failed=$((failed + 1)); }\n' \
        "$pat" "$page: no output line ends in ${expect[0]}, as its comment says: $l" >> "$script"
    else
      mapfile -t expect < <(printf '%s\n' "$comment" | grep -oE '(length|nodes|lower|bound) [0-9]+(\.[0-9]+)?' || true)
      for e in "${expect[@]}"; do
        printf 'grep -qF -- %q "$EX_OUT" || { say %q; failed=$((failed + 1)); }\n' \
          "$e" "$page: the output lacks \"$e\", which its comment quotes: $l" >> "$script"
      done
    fi
    checked=$((checked + ${#expect[@]}))
  done
  [ -s "$script" ] || continue
  printf 'echo "$ran $failed" > "$EX_RESULT"\n' >> "$script"
  (cd "$copy" && HOME=$tmp/home TMPDIR=$tmp/scratch EX_OUT=$tmp/out EX_RESULT=$tmp/result PATH="$copy/bin:$PATH" PDBGEN="$copy/bin/pdbgen" \
    bash -c 'set -u; say() { printf "readme-examples: %s\n" "$*" >&2; }; ran=0 failed=0; source "$1"; source "$0"' "$script" "$tmp/vars.sh") || { say "block $script: the shell failed"; fail=$((fail + 1)); }
  if read -r r f 2>/dev/null < "$tmp/result"; then ran=$((ran + r)) fail=$((fail + f)); fi
  rm -f "$tmp/result"
done

status=$(git -C "$copy" status --porcelain --untracked-files=all)
if [ -n "$status" ]; then
  say "the examples changed the checkout (git status --porcelain):"
  printf '%s\n' "$status" >&2
  fail=$((fail + 1))
fi
say "$ran examples run ($checked printed figures checked), $skipped skipped, $fail problem(s)"
[ "$fail" -eq 0 ]
