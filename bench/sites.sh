# Sourced by the benchmarks beside Hugo. sites DIR N makes, from this
# repository's commit REV (HEAD unless set) and bench/page.md, two sites of the same N
# distinct pages in 20 sections (page I in section I mod 20): DIR/ours
# (the repository, its content replaced, with its build at DIR/build) and
# DIR/hugo (bench/hugo/). Each page's code differs
# by one comment line after each fence, so that neither tool can reuse one
# page's highlighting for the next: real sites do not repeat their code.
bench=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$bench/.." && pwd)
HUGO=${HUGO:-hugo}
REV=${REV:-HEAD}

sites() {
  local dir=$1 n=$2 i s
  command -v "$HUGO" >/dev/null || { echo "no hugo: see docs/speed.md (or set HUGO)" >&2; return 1; }
  mkdir -p "$dir/ours" && git -C "$repo" archive "$REV" | tar -x -C "$dir/ours"
  # Only the 404 page stays: the catalog links nothing to the others.
  find "$dir/ours/content" -mindepth 1 ! -name 404.md -delete
  (cd "$dir/ours" && go build -o "$dir/build" ./cmd/build)
  cp -r "$bench/hugo" "$dir/hugo"
  for i in $(seq -f '%04g' 1 "$n"); do
    s=s$(( 10#$i % 20 ))
    mkdir -p "$dir/ours/content/$s" "$dir/hugo/content/$s"
    # Ours wants counter = false on a page without the counter.
    page "$i" | sed '/^date = /a counter = false' >"$dir/ours/content/$s/p$i.md"
    page "$i" >"$dir/hugo/content/$s/p$i.md"
  done
}

# page I is page.md with I at the end of its title and in a comment after
# each fence opening.
page() {
  sed "s/^title = \"\\(.*\\)\"/title = \"\\1 $1\"/
/^\`\`\`python/a # page $1" "$bench/page.md"
}

# median of the numbers on stdin, one a line.
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

# now_ms is the wall clock in milliseconds.
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
