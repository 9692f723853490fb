#!/usr/bin/env bash
# The preview's save -> visible beside hugo server: both serve the same N
# pages (bench/sites.sh), and each edit's time runs from the save until
# that server's pages show it (polled over HTTP every 5 ms). Four kinds
# of edit, EDITS of each, in turns (ours, Hugo, ours...):
#   body    a line appended to the middle page, until that page shows it;
#   title   a word added at the end of its title (which keeps its place),
#           until the index and its neighbour before it show it;
#   new     a page added to its section, until the index and the page show it;
#   delete  a page of the next section deleted, until the index no longer lists it.
# It prints both medians of each kind and every run.
#
#   bash bench/reload-vs-hugo.sh [N] [EDITS] [KINDS]      (default 1000 10 "body title new delete")
set -euo pipefail
source "$(dirname "$0")/sites.sh"
n=${1:-1000} edits=${2:-10} kinds=${3:-"body title new delete"}
work=$(mktemp -d) pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$work"' EXIT
sites "$work" "$n"
ours=$(( 20000 + RANDOM % 10000 )) theirs=$(( 30000 + RANDOM % 10000 ))
# A time limit that a loaded machine's first build of 1,000 pages keeps to.
"$work/build" -root "$work/ours" -out "$work/ours/public" -serve -addr "127.0.0.1:$ours" -timeout 2m >"$work/ours.log" 2>&1 &
pids+=($!)
"$HUGO" server -s "$work/hugo" --port "$theirs" --bind 127.0.0.1 --disableFastRender=false --quiet >"$work/hugo.log" 2>&1 &
pids+=($!)
mid=$(printf %04d $(( n > 1 ? n / 2 : 1 )))
sec=s$(( 10#$mid % 20 )) # its section (sites.sh)
before=$(printf %04d $(( 10#$mid - 20 ))) # its neighbour before it, by title
declare -A port=([ours]=$ours [hugo]=$theirs)

# up URL waits up to three minutes for URL to answer.
up() {
  for _ in $(seq 1800); do curl -fsS -o /dev/null "$1" 2>/dev/null && return; sleep 0.1; done
  echo "$1 never answered" >&2
  exit 1
}
up "http://127.0.0.1:$ours/$sec/p$mid/"
up "http://127.0.0.1:$theirs/$sec/p$mid/"
sleep 2

# shows URL TEXT polls URL until it holds TEXT; hides URL TEXT, until it
# does not. Each gives up after 4,000 polls, saying so.
shows() {
  for _ in $(seq 4000); do curl -fsS "$1" 2>/dev/null | grep -qF "$2" && return; sleep 0.005; done
  echo "$1 never showed $2" >&2
}
hides() {
  for _ in $(seq 4000); do curl -fsS "$1" 2>/dev/null | grep -qF "$2" || return; sleep 0.005; done
  echo "$1 still shows $2" >&2
}

# edit KIND SITE I makes the I-th edit of KIND to SITE (ours or hugo) and
# prints the milliseconds until its server shows it.
edit() {
  local kind=$1 site=$2 i=$3 word="edit$RANDOM$RANDOM" url="http://127.0.0.1:${port[$2]}" t0 gone
  local md="$work/$site/content/$sec/p$mid.md"
  gone=$(printf %04d $(( 10#$mid + 1 + 20 * i ))) # in the next section
  t0=$(now_ms)
  case $kind in
  body)
    printf '\n\nThe word %s.\n' "$word" >>"$md"
    shows "$url/$sec/p$mid/" "$word" ;;
  title)
    sed -i "s/^title = \"\\(.*\\)\"/title = \"\\1 $word\"/" "$md"
    shows "$url/" "$word"
    shows "$url/$sec/p$before/" "$word" ;;
  new)
    if [ "$site" = ours ]; then page "$word" | sed '/^date = /a counter = false'; else page "$word"; fi >"$work/$site/content/$sec/new$i.md"
    shows "$url/" "$word"
    shows "$url/$sec/new$i/" "$word" ;;
  delete)
    rm "$work/$site/content/s$(( 10#$gone % 20 ))/p$gone.md"
    hides "$url/" "worse $gone<" ;;
  esac
  echo $(( $(now_ms) - t0 ))
}
for kind in $kinds; do
  a=() b=()
  for i in $(seq 0 $(( edits - 1 ))); do
    a+=("$(edit "$kind" ours "$i")")
    sleep 0.5
    b+=("$(edit "$kind" hugo "$i")")
    sleep 0.5
  done
  echo "save -> visible, $kind, $n pages: ours median $(printf '%s\n' "${a[@]}" | median) ms (${a[*]}); hugo server median $(printf '%s\n' "${b[@]}" | median) ms (${b[*]})"
done
