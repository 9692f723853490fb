package quote

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestVersionOrder sorts tags written every way the SDK, httpx and
// semantic versioning write them, shuffled, into release order.
func TestVersionOrder(t *testing.T) {
	want := []string{
		"0.13.0.dev0", "0.13.0.dev1", "0.13.0", "0.28.1",
		"v1.2.0rc1", "v1.2.0", "1.2.1",
		"v1.9.0", "v1.10.0", "v1.29.0", "v1.29.0.post1",
		"v2.0.0.dev1", "v2.0.0a1", "v2.0.0a2", "v2.0.0b1", "v2.0.0-beta.2", "v2.0.0rc1", "v2.0.0-rc.2", "v2.0.0", "v2.0.1",
		"v10.0", "v10.0.1",
	}
	got := slices.Clone(want)
	rand.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
	var vs []version
	for _, tag := range got {
		v, ok := parseVersion(tag)
		if !ok {
			t.Fatalf("%s: not read as a version", tag)
		}
		vs = append(vs, v)
	}
	slices.SortStableFunc(vs, compare)
	got = got[:0]
	for _, v := range vs {
		got = append(got, v.tag)
	}
	if !slices.Equal(got, want) {
		t.Errorf("order:\n%q\nwant:\n%q", got, want)
	}
	// A release number's ending zeros say nothing: 1.2 is 1.2.0.
	for _, pair := range [][2]string{{"1.2", "v1.2.0"}, {"1.2.0.0", "1.2"}} {
		x, _ := parseVersion(pair[0])
		y, _ := parseVersion(pair[1])
		if compare(x, y) != 0 {
			t.Errorf("%s and %s are not the same version", pair[0], pair[1])
		}
	}
}

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct {
		tag   string
		ok    bool
		pre   bool
		major int
	}{
		{"v1.29.0", true, false, 1},
		{"0.28.1", true, false, 0},
		{"1.15.0", true, false, 1},
		{"v2.0.0rc1", true, true, 2},
		{"v2.0.0a1", true, true, 2},
		{"v2.0.0b2", true, true, 2},
		{"v2.0.0-rc1", true, true, 2},
		{"v2.0.0-rc.1", true, true, 2},
		{"1.0.0.beta0", true, true, 1},
		{"0.13.0.dev0", true, true, 0},
		{"V3.1", true, false, 3},
		{"v1.29.0.post1", true, false, 1},
		{"v1.0.0+build.5", true, false, 1},
		{"latest", false, false, 0},
		{"v1", false, false, 0},
		{"release-2024", false, false, 0},
		{"v1.0.0-alpha.beta", false, false, 0},
		{"v1.2.x", false, false, 0},
		{"v99999999999999999999.0", false, false, 0},
	} {
		v, ok := parseVersion(tc.tag)
		switch {
		case ok != tc.ok:
			t.Errorf("%s: read as a version: %v, want %v", tc.tag, ok, tc.ok)
		case ok && (v.prerelease() != tc.pre || v.major() != tc.major):
			t.Errorf("%s: prerelease %v, major %d; want %v, %d", tc.tag, v.prerelease(), v.major(), tc.pre, tc.major)
		}
	}
	// Two ways of writing one version are one version.
	x, _ := parseVersion("1.15.0")
	y, _ := parseVersion("v1.15")
	if compare(x, y) != 0 {
		t.Error("1.15.0 and v1.15 are not the same version")
	}
}
