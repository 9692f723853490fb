package version

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCompare holds the cases that trip an order made by splitting a tag
// on its dots and comparing the parts as numbers or text.
func TestCompare(t *testing.T) {
	for _, tc := range []struct{ older, newer, why string }{
		{"v2.0.0rc1", "v2.0.0", "a candidate comes before its release"},
		{"v2.0.0b2", "v2.0.0rc1", "a beta before a candidate"},
		{"v2.0.0a3", "v2.0.0b1", "an alpha before a beta"},
		{"v2.0.0.dev1", "v2.0.0a1", "a dev release before an alpha"},
		{"v2.0.0rc1", "v2.0.0rc2", "candidates by number"},
		{"1.0.0.beta0", "1.0.0", "a beta after a dot, before its release"},
		{"v2.0.0", "v2.1.0-rc.1", "a candidate of the next release, after this one"},
		{"v2.1.0-rc.1", "v2.1.0", "a semantic versioning candidate before its release"},
		{"v2.1.0-rc.1", "v2.1.0-rc.2", "semantic versioning candidates by number"},
		{"1.23.0-beta.0", "v1.23.0", "a beta, v or no v"},
		{"v1.29.0", "1.30.0", "a v prefix says nothing (typescript-sdk tags both ways)"},
		{"1.25.1", "v1.25.2", "a v prefix says nothing, the other way round"},
		{"v1.9.0", "v1.10.0", "two-digit parts are numbers, not text"},
		{"0.3.0", "0.28.1", "two-digit parts, in the middle"},
		{"v9.0.0", "v10.0.0", "two-digit majors"},
		{"1.2.0", "1.2.0.1", "a fourth part"},
		{"1.2.0.9", "1.2.1", "a fourth part, before the next third"},
		{"v1.29.0", "v1.29.0.post1", "a post release after its release"},
		{"v1.29.0.post1", "v1.29.1", "a post release before the next"},
		{"v2.0.0-beta.1", "@modelcontextprotocol/core@2.0.0", "a scoped tag by its version"},
		{"@modelcontextprotocol/core@2.0.0-beta.5", "@modelcontextprotocol/core@2.0.0", "a scoped beta before its release"},
		{"@modelcontextprotocol/server@2.0.0-beta.5", "@modelcontextprotocol/core@2.0.0", "not by the package's name"},
		{"v1.29.0", "@modelcontextprotocol/core@2.0.0", "a scoped tag after an older plain one"},
	} {
		older, newer := mustParse(t, tc.older), mustParse(t, tc.newer)
		if Compare(older, newer) >= 0 || Compare(newer, older) <= 0 {
			t.Errorf("%s is not older than %s (%s)", tc.older, tc.newer, tc.why)
		}
	}
	// Tags of one version, written two ways, are one version.
	for _, pair := range [][2]string{
		{"1.2", "v1.2.0"},
		{"1.2.0.0", "1.2"},
		{"1.15.0", "v1.15"},
		{"V3.1", "3.1.0"},
		{"v1.0.0+build.5", "1.0.0"},
		{"1.0rc", "1.0rc0"},
		{"v2.0.0", "@modelcontextprotocol/core@2.0.0"},
		{"@modelcontextprotocol/core@2.0.0", "@modelcontextprotocol/server@2.0.0"},
	} {
		if Compare(mustParse(t, pair[0]), mustParse(t, pair[1])) != 0 {
			t.Errorf("%s and %s are not the same version", pair[0], pair[1])
		}
	}
}

// TestSort sorts tags written every way the SDK, httpx and semantic
// versioning write them, shuffled, into release order.
func TestSort(t *testing.T) {
	want := []string{
		"0.13.0.dev0", "0.13.0.dev1", "0.13.0", "0.28.1",
		"v1.2.0rc1", "v1.2.0", "1.2.1",
		"v1.9.0", "v1.10.0", "v1.29.0", "v1.29.0.post1",
		"v2.0.0.dev1", "v2.0.0a1", "v2.0.0a2", "v2.0.0b1", "v2.0.0-beta.2", "v2.0.0rc1", "v2.0.0-rc.2", "v2.0.0", "v2.0.1",
		"v10.0", "v10.0.1",
	}
	got := slices.Clone(want)
	rand.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
	var vs []Version
	for _, tag := range got {
		vs = append(vs, mustParse(t, tag))
	}
	slices.SortStableFunc(vs, Compare)
	got = got[:0]
	for _, v := range vs {
		got = append(got, v.Tag)
	}
	if !slices.Equal(got, want) {
		t.Errorf("order:\n%q\nwant:\n%q", got, want)
	}
}

func TestParse(t *testing.T) {
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
		{"v2.1.0-rc.1", true, true, 2},
		{"1.0.0.beta0", true, true, 1},
		{"0.13.0.dev0", true, true, 0},
		{"V3.1", true, false, 3},
		{"v10.0.1", true, false, 10},
		{"1.2.0.1", true, false, 1},
		{"v1.29.0.post1", true, false, 1},
		{"v1.0.0+build.5", true, false, 1},
		{"@modelcontextprotocol/core@2.0.0", true, false, 2},
		{"@modelcontextprotocol/core@2.0.0-beta.5", true, true, 2},
		{"latest", false, false, 0},
		{"main", false, false, 0},
		{"3f2a1b9c0d4e", false, false, 0},
		{"v1", false, false, 0},
		{"release-2024", false, false, 0},
		{"v1.0.0-alpha.beta", false, false, 0},
		{"v1.2.x", false, false, 0},
		{"v99999999999999999999.0", false, false, 0},
		{"@modelcontextprotocol/core", false, false, 0},
		{"@modelcontextprotocol@2.0.0", false, false, 0},
	} {
		v, ok := Parse(tc.tag)
		switch {
		case ok != tc.ok:
			t.Errorf("%s: read as a version: %v, want %v", tc.tag, ok, tc.ok)
		case ok && (v.Prerelease() != tc.pre || v.Major() != tc.major):
			t.Errorf("%s: prerelease %v, major %d; want %v, %d", tc.tag, v.Prerelease(), v.Major(), tc.pre, tc.major)
		case ok && v.Tag != tc.tag:
			t.Errorf("%s: tag %q", tc.tag, v.Tag)
		}
	}
}

func mustParse(t *testing.T, tag string) Version {
	t.Helper()
	v, ok := Parse(tag)
	if !ok {
		t.Fatalf("%s: not read as a version", tag)
	}
	return v
}
