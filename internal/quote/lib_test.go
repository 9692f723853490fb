package quote

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tags are those of acme/lib, the made-up library the -drift tests read,
// oldest first: each a folder of testdata/lib/ (its README says what each
// changes), the whole tree at that tag. "latest" is a tag that is no version.
var tags = []struct {
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

// gitEnv is the environment for git in tests: no user or system settings,
// and fixed names and dates, so that every run makes the same commits.
func gitEnv() []string {
	return append(os.Environ(),
		"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
}

// git runs git in dir and returns what it printed.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = gitEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// library makes acme/lib, a clone with a work tree, in a new folder and
// returns its path.
func library(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "lib")
	git(t, filepath.Dir(dir), "init", "-q", "-b", "main", dir)
	for _, tag := range tags {
		git(t, dir, "rm", "-rq", "--ignore-unmatch", ".")
		if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "lib", tag.Name))); err != nil {
			t.Fatal(err)
		}
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-qm", "release "+tag.Name)
		if tag.Annotated {
			git(t, dir, "tag", "-a", "-m", tag.Name, tag.Name)
		} else {
			git(t, dir, "tag", tag.Name)
		}
	}
	git(t, dir, "tag", "latest")
	return dir
}

// bare makes a bare clone of the library at dir, with its tags, and
// returns its path.
func bare(t testing.TB, dir string) string {
	t.Helper()
	b := filepath.Join(t.TempDir(), "lib.git")
	git(t, filepath.Dir(b), "clone", "-q", "--bare", dir, b)
	return b
}
