#!/usr/bin/env bash
# The preview's save -> visible beside hugo server: both serve the same N
# pages (bench/sites.sh), and each edit's time runs from the save until
# that server's pages show it, polled over HTTP every 5 ms. Four kinds
# of edit, EDITS of each, in turns (ours, Hugo, ours...):
#   body    a line appended to the middle page, until that page shows it;
#   title   a word added at the end of its title (which keeps its place),
#           until the index and its neighbour before it show it;
#   new     a page added to its section after the middle page, until the index lists it and its
#           URL answers 200;
#   delete  a page of the next section deleted, until the index no longer lists it.
# "The index" is, for ours, the page of the index that lists the page
# (/ or /page/N/: see index below), for Hugo /, which lists every page.
# It prints both medians of each kind and every run, - for one not seen.
#
# The pollers start before the save, each one curl on one connection, and
# the clock is bash's own: on a loaded machine starting a process (curl,
# date, sed) takes tens of milliseconds, which would be counted otherwise.
# The edits are written by bash itself (an editor's save in place), but
# rm, whose clock starts once it has removed the page.
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

# poller URL WANT TEXT [-I] polls URL every 5 ms for up to 20 s, and prints
# "ready" once a response does not meet WANT (1: it holds TEXT; 0: it
# does not), then "met" once one does. With -I it asks for the headers
# alone: a page not made yet answers with the server's 404 page, ours
# listing every page, which 200 GETs a second would make the machine's
# work rather than the server's.
poller() {
  curl -sS --fail-early --rate 200/s ${4:-} -w '\n<<end of response>>\n' "$1?poll=[1-4000]" 2>/dev/null |
    awk -v want="$2" -v text="$3" 'BEGIN { RS = "<<end of response>>" }
      (index($0, text) > 0) != want && !ready { print "ready"; fflush(); ready = 1 }
      (index($0, text) > 0) == want && ready { print "met"; fflush(); exit }'
}

# index SITE PAGE is the URL of the page of SITE's index that lists PAGE
# (s1/p0500): ours goes on over /page/N/ when the catalog outgrows one
# round trip (docs/build.md); Hugo's lists every page on /.
index() {
  local url="http://127.0.0.1:${port[$1]}" f
  if [ "$1" = ours ]; then
    for f in "$work/ours/public/index.html" "$work/ours/public"/page/*/index.html; do
      if grep -q "href=/$2/" "$f"; then
        f=${f#"$work/ours/public"}
        echo "$url${f%index.html}"
        return
      fi
    done
  fi
  echo "$url/"
}

# edit KIND SITE I makes the I-th edit of KIND to SITE (ours or hugo) and
# prints the milliseconds until its server shows it.
edit() {
  local kind=$1 site=$2 i=$3 word="edit$RANDOM$RANDOM" url="http://127.0.0.1:${port[$2]}"
  local md="$work/$site/content/$sec/p$mid.md" page new gone gone_path fd fds=() t0 t1 line
  gone=$(printf %04d $(( 10#$mid + 1 + 20 * i ))) # in the next section
  gone="$work/$site/content/s$(( 10#$gone % 20 ))/p$gone.md"
  case $kind in
  body) exec {fd}< <(poller "$url/$sec/p$mid/" 1 "$word"); fds+=("$fd") ;;
  title)
    page=$(<"$md")
    [[ $page =~ title\ =\ \"[^\"]*\" ]]
    page=${page/"${BASH_REMATCH[0]}"/"${BASH_REMATCH[0]%\"} $word\""}
    exec {fd}< <(poller "$(index "$site" "$sec/p$mid")" 1 "$word"); fds+=("$fd")
    exec {fd}< <(poller "$url/$sec/p$before/" 1 "$word"); fds+=("$fd") ;;
  new)
    # Titled to come right after the page edited above, on its page of the index.
    new=$(page "${mid}x$word")
    if [ "$site" = ours ]; then new=$(sed '/^date = /a counter = false' <<<"$new"); fi
    exec {fd}< <(poller "$(index "$site" "$sec/p$mid")" 1 "$word"); fds+=("$fd")
    exec {fd}< <(poller "$url/$sec/new$i/" 1 " 200" -I); fds+=("$fd") ;;
  delete)
    gone_path=$(basename "$(dirname "$gone")")/$(basename "$gone" .md)
    exec {fd}< <(poller "$(index "$site" "$gone_path")" 0 "$(basename "$gone" .md)/"); fds+=("$fd") ;;
  esac
  for fd in "${fds[@]}"; do read -r -t 20 line <&"$fd" || { echo "$kind on $site: no poller ready" >&2; return 1; }; done
  t0=${EPOCHREALTIME/./}
  case $kind in
  body) printf '\n\nThe word %s.\n' "$word" >>"$md" ;;
  title) printf '%s\n' "$page" >"$md" ;;
  new) printf '%s\n' "$new" >"$work/$site/content/$sec/new$i.md" ;;
  delete) rm "$gone"; t0=${EPOCHREALTIME/./} ;;
  esac
  local shown=1
  for fd in "${fds[@]}"; do read -r -t 20 line <&"$fd" || shown=; done
  t1=${EPOCHREALTIME/./}
  for fd in "${fds[@]}"; do exec {fd}<&-; done
  if [ -z "$shown" ]; then
    echo "$kind on $site: a poller ended or waited 20 s without seeing it" >&2
    echo -
    return
  fi
  echo $(( (t1 - t0) / 1000 ))
}
for kind in $kinds; do
  a=() b=()
  for i in $(seq 0 $(( edits - 1 ))); do
    a+=("$(edit "$kind" ours "$i")")
    sleep 0.5
    b+=("$(edit "$kind" hugo "$i")")
    sleep 0.5
  done
  # A run not seen (-) is left out of the median.
  echo "save -> visible, $kind, $n pages: ours median $(printf '%s\n' "${a[@]}" | grep -x '[0-9]*' | median) ms (${a[*]}); hugo server median $(printf '%s\n' "${b[@]}" | grep -x '[0-9]*' | median) ms (${b[*]})"
done
