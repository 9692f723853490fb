#!/usr/bin/env bash
# The deploy command as Netlify runs it: netlify.toml's [build] command,
# with its [build.environment] (GO_VERSION aside: Netlify's, not Go's) and
# every setting -publish needs, in a copy of this repository's committed
# HEAD, each run with an empty Go build cache (the modules already
# downloaded, as Netlify keeps them). It prints each run's time and the
# load average before it, then the median.
#
#   bash bench/deploy.sh [RUNS]      (default 3)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$repo" archive HEAD | tar -x -C "$work"
cmd=$(sed -n 's/^  command = "\(.*\)"$/\1/p' "$work/netlify.toml")
mapfile -t vars < <(sed -n '/^\[build.environment\]/,/^\[\[*[a-z]/s/^  \([A-Z_]*\) = "\(.*\)"$/\1=\2/p' "$work/netlify.toml" | grep -v '^GO_VERSION=')
# Realistic values, as long as real ones: they are never published.
vars+=(URL=https://errors.lilulab.ai SITE_STOREFRONT_URL=https://lilulab.gumroad.com/l/mcp-errors-guide
  SITE_WALLET_ADDRESS=0x52908400098527886E0F7030069857D2E4169EE7 SITE_PAYMENT_CONTACT=payments@lilulab.ai
  "SITE_GUIDE=Step and turn: finishing agent runs within their cap")
echo "# $cmd"
echo "# ${vars[*]:0:4}, $(go version | cut -d' ' -f3), $(git -C "$repo" rev-parse --short HEAD), $(date -u +%FT%TZ), $(nproc) cores"
times=()
for i in $(seq "$runs"); do
  cache=$(mktemp -d)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  t0=$(date +%s%N)
  (cd "$work" && env "${vars[@]}" GOCACHE="$cache" bash -c "$cmd" >/dev/null)
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  rm -rf "$cache" "$work/public" "$work/functions"
  times+=("$ms")
  echo "run $i: $ms ms (load before: $load)"
done
printf 'median: %s ms\n' "$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')"
