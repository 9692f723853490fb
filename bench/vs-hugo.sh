#!/usr/bin/env bash
# The build beside Hugo: this repository's committed HEAD (or REV), built, and
# hugo --minify on the same N pages (bench/sites.sh), each timed as a
# whole process, in turns (ours, Hugo, ours, Hugo...) so that the ratio
# holds while the machine's speed drifts. For each size it prints both
# medians, the median of the pairs' ratios (below 1: faster than Hugo)
# and each one's peak memory.
#
#   bash bench/vs-hugo.sh [SIZES] [RUNS]      (default "1 100 1000" 5)
#
# BUILD_FLAGS are added to our build's; HUGO names the hugo to run.
set -euo pipefail
source "$(dirname "$0")/sites.sh"
sizes=${1:-"1 100 1000"} runs=${2:-5}
read -r -a flags <<<"${BUILD_FLAGS:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ms CMD... runs CMD, quiet, and prints how long it took.
ms() {
  local t0
  t0=$(now_ms)
  "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
  echo $(( $(now_ms) - t0 ))
}

# peak CMD... prints CMD's peak resident memory in KB (GNU time, Debian's
# package "time"), or n/a without it.
peak() {
  [ -x /usr/bin/time ] || { echo n/a; return; }
  /usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1 && tail -n 1 "$work/rss"
}

echo "# ours${BUILD_FLAGS:+ ($BUILD_FLAGS)} beside $("$HUGO" version | cut -d' ' -f1-2), $(git -C "$repo" rev-parse --short "$REV"), $(date -u +%FT%TZ), $(nproc) cores"
for n in $sizes; do
  dir="$work/$n"
  sites "$dir" "$n"
  ours=("$dir/build" "${flags[@]}" -root "$dir/ours" -out "$dir/ours/public")
  hugo=("$HUGO" --minify -s "$dir/hugo" -d "$dir/hugo/public" --quiet)
  # A first run of each, untimed, for the operating system's file cache.
  ms "${ours[@]}" >/dev/null
  ms "${hugo[@]}" >/dev/null
  a=() b=() r=()
  for _ in $(seq "$runs"); do
    x=$(ms "${ours[@]}")
    y=$(ms "${hugo[@]}")
    a+=("$x") b+=("$y") r+=("$(awk -v x="$x" -v y="$y" 'BEGIN {printf "%.3f", x / y}')")
  done
  printf 'pages=%-5s ours %6s ms  hugo %6s ms  ours/hugo %s (pairs: %s)  peak RSS ours %s KB, hugo %s KB\n' "$n" \
    "$(printf '%s\n' "${a[@]}" | median)" "$(printf '%s\n' "${b[@]}" | median)" \
    "$(printf '%s\n' "${r[@]}" | median)" "${r[*]}" "$(peak "${ours[@]}")" "$(peak "${hugo[@]}")"
done
