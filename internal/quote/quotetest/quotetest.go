// Package quotetest makes the git clone that the -drift tests read: acme/lib,
// a made-up library with a tag for each folder of testdata/lib/, each the whole
// tree at that tag, committed in the order Tags gives.
package quotetest

import (
	"embed"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

//go:embed testdata/lib
var lib embed.FS

// Tags are acme/lib's tags, oldest first: v1.1.0 moves lines of
// src/app.py, drops src/old.py and doubles the twins of src/twins.py;
// v1.2.0 changes a line; the 2.x line rewrites the file, v2.0.0 moving
// a line down and v2.1.0rc1, a prerelease, changing one. "latest" is a
// tag that is no version.
var Tags = []struct {
	Name      string
	Annotated bool
}{
	{"v1.0.0", true},
	{"v1.1.0", false},
	{"v1.2.0", true},
	{"v2.0.0-rc1", false},
	{"v2.0.0", true},
	{"v2.1.0rc1", false},
}

// Env is the environment for git in tests: no user or system settings,
// and fixed names and dates, so that every run makes the same commits.
func Env() []string {
	return append(os.Environ(),
		"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
}

// Git runs git in dir and returns what it printed.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Library makes acme/lib, a clone with a work tree, in a new folder and
// returns its path.
func Library(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "lib")
	Git(t, filepath.Dir(dir), "init", "-q", "-b", "main", dir)
	for _, tag := range Tags {
		Git(t, dir, "rm", "-rq", "--ignore-unmatch", ".")
		tree, err := fs.Sub(lib, "testdata/lib/"+tag.Name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(dir, tree); err != nil {
			t.Fatal(err)
		}
		Git(t, dir, "add", "-A")
		Git(t, dir, "commit", "-qm", "release "+tag.Name)
		if tag.Annotated {
			Git(t, dir, "tag", "-a", "-m", tag.Name, tag.Name)
		} else {
			Git(t, dir, "tag", tag.Name)
		}
	}
	Git(t, dir, "tag", "latest")
	return dir
}

// Bare makes a bare clone of the library at dir, with its tags, and
// returns its path.
func Bare(t testing.TB, dir string) string {
	t.Helper()
	bare := filepath.Join(t.TempDir(), "lib.git")
	Git(t, filepath.Dir(bare), "clone", "-q", "--bare", dir, bare)
	return bare
}
