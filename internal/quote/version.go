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
	// key orders what follows the release number: the prerelease kind
	// (alpha 1, beta 2, candidate 3; none math.MaxInt, or math.MinInt for
	// a dev release of the release itself) and number, the post number
	// (none -1) and the dev number (none math.MaxInt). So 1.0.dev1 comes
	// before 1.0a1, 1.0rc2 before 1.0, 1.0 before 1.0.post1, and 1.0a1.dev1
	// before 1.0a1.
	key [4]int
}

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
	v = version{tag: tag, key: [4]int{math.MaxInt, 0, -1, math.MaxInt}}
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
		kind := map[string]int{"a": 1, "alpha": 1, "b": 2, "beta": 2}[strings.ToLower(m[2])]
		v.key[0], v.key[1] = cmp.Or(kind, 3), n[0]
	}
	if m[4] != "" || m[6] != "" {
		v.key[2] = n[1]
	}
	if m[7] != "" {
		v.key[3] = n[2]
		if m[2] == "" && v.key[2] < 0 {
			v.key[0] = math.MinInt
		}
	}
	return v, true
}

// prerelease reports whether v is an alpha, beta, candidate or dev
// release: not one to tell readers to upgrade to.
func (v version) prerelease() bool { return v.key[0] != math.MaxInt || v.key[3] != math.MaxInt }

func (v version) major() int { return v.release[0] }

// compare orders versions as PEP 440 does: by release number (1.2 is
// 1.2.0), then by key.
func compare(x, y version) int {
	return cmp.Or(slices.Compare(significant(x.release), significant(y.release)), slices.Compare(x.key[:], y.key[:]))
}

// significant drops the zeros that end a release number.
func significant(r []int) []int {
	for len(r) > 1 && r[len(r)-1] == 0 {
		r = r[:len(r)-1]
	}
	return r
}
