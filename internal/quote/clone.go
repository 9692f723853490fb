package quote

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// A clone is a local git clone of a cited repository, bare or not, read
// with git commands that write nothing (no index, no lock, no fetch).
type clone struct {
	dir   string // as given
	env   []string
	files map[string][]byte // by REV:PATH, read once however many quotes it holds; nil when there is none
	err   error             // the first failure to read, which makes every answer unsure
}

// locating would point git at another repository or other objects.
var locating = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE",
	"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_REPLACE_REF_BASE"}

// openClone checks that dir is a git repository of its own, not a folder
// inside one (git would read the enclosing repository).
func openClone(dir string) (*clone, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: no such folder", dir)
	case err != nil:
		return nil, err
	case !fi.IsDir():
		return nil, fmt.Errorf("%s is a file, not a git clone", dir)
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(locating, strings.ToUpper(name))
	})
	c := &clone{dir: dir, files: map[string][]byte{}, env: append(env,
		// Look for the repository in dir itself, never above it.
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(abs),
		"GIT_OPTIONAL_LOCKS=0",     // no index refresh
		"GIT_NO_LAZY_FETCH=1",      // a partial clone does not fetch what it lacks (git 2.45 on)
		"GIT_NO_REPLACE_OBJECTS=1", // the tag's own files, not replacements
		"GIT_TERMINAL_PROMPT=0",
		"GIT_LITERAL_PATHSPECS=1", // a path is a path, not a pattern
	)}
	if _, err := c.git("rev-parse", "--absolute-git-dir"); err != nil {
		return nil, fmt.Errorf("%s is not a git repository: %w", dir, err)
	}
	return c, nil
}

func (c *clone) git(args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", c.dir}, args...)...)
	cmd.Env = c.env
	out, err := cmd.Output() // keeps git's stderr in the *exec.ExitError
	if exit, ok := err.(*exec.ExitError); ok && len(bytes.TrimSpace(exit.Stderr)) > 0 {
		return nil, fmt.Errorf("git %s: %s", args[0], bytes.TrimSpace(exit.Stderr))
	}
	if err != nil {
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}

// commit is the commit rev names, such as HEAD or a tag.
func (c *clone) commit(rev string) (string, error) {
	out, err := c.git("rev-parse", "--verify", "-q", rev+"^{commit}")
	return strings.TrimSpace(string(out)), err
}

// tags maps each tag of the clone to the commit it names (an annotated tag peeled).
func (c *clone) tags() (map[string]string, error) {
	out, err := c.git("for-each-ref", "--format=%(refname:strip=2) %(objectname) %(*objectname)", "refs/tags/")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.dir, err)
	}
	tags := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 1 {
			tags[f[0]] = f[len(f)-1]
		}
	}
	return tags, nil
}

// readFile reads path at rev (refs/tags/TAG or a commit), as GitHub shows it.
// A path rev lacks wraps fs.ErrNotExist; any other failure stays in c.err: unread is not gone.
func (c *clone) readFile(rev, path string) ([]byte, error) {
	if c.err != nil {
		return nil, c.err
	}
	name, tag := rev+":"+path, strings.TrimPrefix(rev, "refs/tags/")
	data, ok := c.files[name]
	if !ok {
		// "MODE TYPE OBJECT\tPATH", or nothing for a path rev lacks.
		listed, err := c.git("ls-tree", "--full-tree", rev, "--", path)
		if f := strings.Fields(string(listed)); err == nil && len(f) > 2 && f[1] == "blob" {
			data, err = c.git("cat-file", "blob", f[2])
			data = append([]byte{}, data...) // an empty file is there too
			if err != nil {
				err = fmt.Errorf("%s at %s is in the tag's tree, but its content is not in the clone (a partial or damaged clone): clone it whole: %w", path, tag, err)
			}
		}
		if err != nil {
			c.err = fmt.Errorf("%s: %w", c.dir, err)
			return nil, c.err
		}
		c.files[name] = data
	}
	if data == nil {
		return nil, fmt.Errorf("%s at %s: %w", path, tag, fs.ErrNotExist)
	}
	return data, nil
}
