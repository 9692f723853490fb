// Holding the filters to what the counter records and the site holds: a
// filter that can match nothing is refused, not shown as a page no one read.

package main

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// refHost reads -ref as the counter records a referrer: the host of
// document.referrer, which a browser writes in lower case, without a port.
func refHost(ref string) (string, error) {
	s := ref
	if !strings.Contains(s, "://") {
		s = "//" + s // a host alone, or with a path
	}
	u, err := url.Parse(s)
	host := strings.TrimSuffix(u.Host, ":"+u.Port()) // [::1] keeps its brackets, as in a browser
	if err != nil || host == "" {
		return "", fmt.Errorf("-ref %q: give a referrer's host, such as news.ycombinator.com, or a URL on it", ref)
	}
	return strings.ToLower(host), nil
}

// checkPath refuses a -path that is neither one of the site's pages nor
// the path of a reading event the store holds, naming the nearest of them.
func checkPath(path string, pages, read []string) error {
	known := append(pages, read...)
	if path == "" || slices.Contains(known, path) {
		return nil
	}
	err := fmt.Errorf("-path %q is no page of the site, and no reading event of the period or the one before has it", path)
	if len(known) == 0 {
		return err
	}
	near := slices.MinFunc(known, func(a, b string) int {
		return cmp.Or(edits(path, a)-edits(path, b), strings.Compare(a, b))
	})
	return fmt.Errorf("%w: the nearest page is %q", err, near)
}

// edits is the number of bytes to insert, delete or change to turn a into
// b (Levenshtein's distance).
func edits(a, b string) int {
	row := make([]int, len(b)+1) // from a[:i] to each b[:j]
	for j := range row {
		row[j] = j
	}
	for i := range len(a) {
		diag := row[0]
		row[0] = i + 1
		for j := range len(b) {
			change := diag
			if a[i] != b[j] {
				change++
			}
			diag, row[j+1] = row[j+1], min(row[j+1]+1, row[j]+1, change)
		}
	}
	return row[len(b)]
}
