#!/usr/bin/env bash
# The deploy command as Netlify runs it: netlify.toml's [build] command,
# with its [build.environment] (GO_VERSION aside: Netlify's, not Go's) and
# every setting -publish needs, in a copy of this repository at REV (its
# committed HEAD by default), each run with an empty Go build cache (the
# modules already downloaded, as Netlify keeps them). It prints each run's
# time, its CPU time and the load average before it, then the medians. It
# needs GNU time (Debian's package "time").
#
#   bash bench/deploy.sh [RUNS] [REV]      (default 3 HEAD)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3} rev=${2:-HEAD}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$repo" archive "$rev" | tar -x -C "$work"
cmd=$(sed -n 's/^  command = "\(.*\)"$/\1/p' "$work/netlify.toml")
mapfile -t vars < <(sed -n '/^\[build.environment\]/,/^\[\[*[a-z]/s/^  \([A-Z_]*\) = "\(.*\)"$/\1=\2/p' "$work/netlify.toml" | grep -v '^GO_VERSION=')
# Realistic values, as long as real ones: they are never published.
vars+=(URL=https://errors.lilulab.ai SITE_STOREFRONT_URL=https://lilulab.gumroad.com/l/mcp-errors-guide
  SITE_WALLET_ADDRESS=0x52908400098527886E0F7030069857D2E4169EE7 SITE_PAYMENT_CONTACT=payments@lilulab.ai
  "SITE_GUIDE=The MCP errors field guide")
echo "# $cmd"
echo "# ${vars[*]:0:4}, $(go version | cut -d' ' -f3), $(git -C "$repo" rev-parse --short "$rev"), $(date -u +%FT%TZ), $(nproc) cores"
# Each run's wall time, and the CPU time (user and system) of all it ran:
# on two cores shared with other work the wall time drifts with the load,
# the CPU time much less.
walls=() cpus=()
for i in $(seq "$runs"); do
  cache=$(mktemp -d)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  (cd "$work" && env "${vars[@]}" GOCACHE="$cache" /usr/bin/time -f '%e %U %S' -o "$work/.time" bash -c "$cmd" >/dev/null)
  read -r wall user sys <"$work/.time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.1f", u + s}')
  rm -rf "$cache" "$work/public" "$work/functions"
  walls+=("$wall") cpus+=("$cpu")
  echo "run $i: ${wall} s, CPU ${cpu} s (load before: $load)"
done
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
echo "median: $(printf '%s\n' "${walls[@]}" | median) s, CPU $(printf '%s\n' "${cpus[@]}" | median) s"
