#!/usr/bin/env bash
# The preview's save -> visible beside hugo server: both serve the same N
# pages (bench/sites.sh); a line is appended to the middle page's
# Markdown, and the time runs until that server's page shows it (polled
# over HTTP every 5 ms). EDITS edits each, in turns; it prints both
# medians and every run.
#
#   bash bench/reload-vs-hugo.sh [N] [EDITS]      (default 1000 10)
set -euo pipefail
source "$(dirname "$0")/sites.sh"
n=${1:-1000} edits=${2:-10}
work=$(mktemp -d) pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$work"' EXIT
sites "$work" "$n"
ours=$(( 20000 + RANDOM % 10000 )) theirs=$(( 30000 + RANDOM % 10000 ))
"$work/build" -root "$work/ours" -out "$work/ours/public" -serve -addr "127.0.0.1:$ours" >"$work/ours.log" 2>&1 &
pids+=($!)
"$HUGO" server -s "$work/hugo" --port "$theirs" --bind 127.0.0.1 --disableFastRender=false --quiet >"$work/hugo.log" 2>&1 &
pids+=($!)
mid=$(printf %04d $(( n > 1 ? n / 2 : 1 )))
sec=s$(( 10#$mid % 20 )) # its section (sites.sh)

# up URL waits up to a minute for URL to answer.
up() {
  for _ in $(seq 600); do curl -fsS -o /dev/null "$1" 2>/dev/null && return; sleep 0.1; done
  echo "$1 never answered" >&2
  exit 1
}
up "http://127.0.0.1:$ours/$sec/p$mid/"
up "http://127.0.0.1:$theirs/$sec/p$mid/"
sleep 2

# edit FILE URL appends a new word to FILE and prints the milliseconds
# until URL serves it.
edit() {
  local word="edit$RANDOM$RANDOM" t0
  t0=$(now_ms)
  printf '\n\nThe word %s.\n' "$word" >>"$1"
  for _ in $(seq 4000); do curl -fsS "$2" 2>/dev/null | grep -q "$word" && break; sleep 0.005; done
  echo $(( $(now_ms) - t0 ))
}
a=() b=()
for _ in $(seq "$edits"); do
  a+=("$(edit "$work/ours/content/$sec/p$mid.md" "http://127.0.0.1:$ours/$sec/p$mid/")")
  sleep 0.5
  b+=("$(edit "$work/hugo/content/$sec/p$mid.md" "http://127.0.0.1:$theirs/$sec/p$mid/")")
  sleep 0.5
done
echo "save -> visible, one page of $n: ours median $(printf '%s\n' "${a[@]}" | median) ms (${a[*]}); hugo server median $(printf '%s\n' "${b[@]}" | median) ms (${b[*]})"
