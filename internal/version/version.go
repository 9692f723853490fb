// Package version reads and orders release tags as PEP 440 (v2.0.0rc1),
// semver (v2.1.0-rc.1) and npm workspaces (@scope/core@2.0.0) write them.
// golang.org/x/mod/semver (v0.41.0) reads neither v2.0.0rc1 nor 1.0.0.beta0.
package version

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A Version is a tag read as a release.
type Version struct {
	Tag     string // as written: "v2.0.0rc1"
	Release []int  // the release number: 2.0.0 is [2 0 0]
	// after orders what follows the release number: the prerelease kind
	// (alpha 1, beta 2, candidate 3; none math.MaxInt, or math.MinInt for a
	// dev release of the release itself) and number, the post number (none -1)
	// and the dev number (none math.MaxInt): 1.0.dev1 < 1.0a1.dev1 < 1.0a1 <
	// 1.0rc2 < 1.0 < 1.0.post1.
	after [4]int
}

// tagRE reads a tag; a workspace's tag names its package first.
var tagRE = regexp.MustCompile(`(?i)^(?:(?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*@)?v?(\d+(?:\.\d+)+)` +
	`(?:[-_.]?(a|alpha|b|beta|c|rc|pre|preview)[-_.]?(\d*))?` +
	`(?:[-_.]?(post|rev|r)[-_.]?(\d*)|-(\d+))?` +
	`(?:[-_.]?(dev)[-_.]?(\d*))?` +
	`(?:\+[0-9a-z.]+)?$`)

// Parse reads a tag as a version; ok is false for a tag that is not one,
// such as "latest", "release-2024" or a commit.
func Parse(tag string) (v Version, ok bool) {
	m := tagRE.FindStringSubmatch(tag)
	if m == nil {
		return Version{}, false
	}
	v = Version{Tag: tag, after: [4]int{math.MaxInt, 0, -1, math.MaxInt}}
	for _, f := range strings.Split(m[1], ".") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return Version{}, false // too large to be a version
		}
		v.Release = append(v.Release, n)
	}
	var n [3]int // the prerelease, post and dev numbers; a mark without one is 0: "1.0rc" is 1.0rc0
	for i, s := range []string{m[3], m[5] + m[6], m[8]} {
		var err error
		if n[i], err = strconv.Atoi(cmp.Or(s, "0")); err != nil {
			return Version{}, false
		}
	}
	kinds := map[string]int{"a": 1, "alpha": 1, "b": 2, "beta": 2, "c": 3, "rc": 3, "pre": 3, "preview": 3}
	if k, ok := kinds[strings.ToLower(m[2])]; ok {
		v.after[0], v.after[1] = k, n[0]
	}
	if m[4] != "" || m[6] != "" { // 1.0.post1, 1.0-1
		v.after[2] = n[1]
	}
	if m[7] != "" {
		v.after[3] = n[2]
		if m[2] == "" && v.after[2] < 0 { // 1.0.dev1, before 1.0a1
			v.after[0] = math.MinInt
		}
	}
	return v, true
}

// Prerelease reports whether v is an alpha, beta, candidate or dev
// release: not one to tell readers to upgrade to.
func (v Version) Prerelease() bool { return v.after[0] != math.MaxInt || v.after[3] != math.MaxInt }

// Major is the release number's first part: 2 for v2.0.0rc1.
func (v Version) Major() int { return v.Release[0] }

// Compare orders versions as PEP 440 does: by release number (1.2 is
// 1.2.0), then by what follows it. Two tags of one version compare equal
// (v1.15.0 and 1.15, or v2.0.0 and @modelcontextprotocol/core@2.0.0).
func Compare(x, y Version) int {
	return cmp.Or(slices.Compare(significant(x.Release), significant(y.Release)),
		slices.Compare(x.after[:], y.after[:]))
}

// significant drops the zeros that end a release number.
func significant(r []int) []int {
	for len(r) > 1 && r[len(r)-1] == 0 {
		r = r[:len(r)-1]
	}
	return r
}
