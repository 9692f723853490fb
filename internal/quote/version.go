package quote

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A version is a tag read as PEP 440 (v2.0.0rc1, 1.0.0.beta0, 0.13.0.dev0)
// and semantic versioning (v2.0.0-rc.1) write one. x/mod/semver and
// Masterminds/semver read neither v2.0.0rc1 nor 1.0.0.beta0.
type version struct {
	tag     string
	release []int // 1.29.0: [1 29 0]
	pre     [2]int
	post    int // -1 when none
	dev     int // -1 when none
}

// Prerelease kinds, in order.
const (
	noPre = iota
	alpha
	beta
	candidate
)

var versionRE = regexp.MustCompile(`(?i)^v?(\d+(?:\.\d+)+)` +
	`(?:[-_.]?(a|alpha|b|beta|c|rc|pre|preview)[-_.]?(\d*))?` +
	`(?:[-_.]?(post|rev|r)[-_.]?(\d*)|-(\d+))?` +
	`(?:[-_.]?(dev)[-_.]?(\d*))?` +
	`(?:\+[0-9a-z.]+)?$`)

// parseVersion reads a tag as a version; ok is false for a tag that is
// not one, such as "latest" or "release-2024".
func parseVersion(tag string) (v version, ok bool) {
	m := versionRE.FindStringSubmatch(tag)
	if m == nil {
		return version{}, false
	}
	v = version{tag: tag, post: -1, dev: -1}
	for _, f := range strings.Split(m[1], ".") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return version{}, false // too large to be a version
		}
		v.release = append(v.release, n)
	}
	var n [3]int // a mark without a number is number 0: "1.0rc" is 1.0rc0
	for i, s := range []string{m[3], m[5] + m[6], m[8]} {
		var err error
		if n[i], err = strconv.Atoi(cmp.Or(s, "0")); err != nil {
			return version{}, false
		}
	}
	if m[2] != "" {
		v.pre = [2]int{candidate, n[0]}
		if k, ok := map[string]int{"a": alpha, "alpha": alpha, "b": beta, "beta": beta}[strings.ToLower(m[2])]; ok {
			v.pre[0] = k
		}
	}
	if m[4] != "" || m[6] != "" {
		v.post = n[1]
	}
	if m[7] != "" {
		v.dev = n[2]
	}
	return v, true
}

// prerelease reports whether v is an alpha, beta, candidate or dev
// release: not one to tell readers to upgrade to.
func (v version) prerelease() bool { return v.pre[0] != noPre || v.dev >= 0 }

func (v version) major() int { return v.release[0] }

// compare orders versions as PEP 440 does: by release number (1.2 is
// 1.2.0), then dev releases of it, its prereleases, the release itself
// and its post-releases, each by number.
func compare(x, y version) int {
	if c := slices.Compare(significant(x.release), significant(y.release)); c != 0 {
		return c
	}
	return slices.Compare(x.key(), y.key())
}

// significant drops the zeros that end a release number.
func significant(r []int) []int {
	for len(r) > 1 && r[len(r)-1] == 0 {
		r = r[:len(r)-1]
	}
	return r
}

// key orders what follows the release number: 1.0.dev1 before 1.0a1,
// 1.0rc2 before 1.0, 1.0 before 1.0.post1, and 1.0a1.dev1 before 1.0a1.
func (v version) key() []int {
	pre, dev := v.pre, v.dev
	switch {
	case pre[0] != noPre:
	case v.dev >= 0 && v.post < 0:
		pre = [2]int{math.MinInt, 0}
	default:
		pre = [2]int{math.MaxInt, 0}
	}
	if dev < 0 {
		dev = math.MaxInt
	}
	return []int{pre[0], pre[1], v.post, dev}
}
