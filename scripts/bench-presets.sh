#!/usr/bin/env bash
# Builds every preset with -j 1 and -j 2 and prints a table:
# preset, workers, wall seconds, CPU seconds (user+sys), peak RSS, bytes on disk.
# Usage: scripts/bench-presets.sh [preset...]   (default: all presets)
# Needs GNU time (/usr/bin/time); takes about 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o bin/pdbgen ./cmd/pdbgen
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(8puzzle 15-555 15-663 default 15-78 24-6666)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '| preset | -j | wall s | CPU s | peak RSS MiB | file MiB |\n|---|---|---|---|---|---|\n'
for p in "${presets[@]}"; do
  for j in 1 2; do
    rm -rf "$out/d"
    arg=(--preset "$p")
    [ "$p" = default ] && arg=()
    /usr/bin/time -f '%e %U %S %M' -o "$out/t" bin/pdbgen build "${arg[@]}" -j "$j" -o "$out/d" --quiet >/dev/null
    read -r wall user sys rss < "$out/t"
    size=$(du -cb "$out"/d/*.pdb | tail -1 | cut -f1)
    awk -v p="$p" -v j="$j" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v z="$size" \
      'BEGIN { printf "| %s | %d | %.2f | %.2f | %.0f | %.1f |\n", p, j, w, u+s, r/1024, z/1048576 }'
  done
done
