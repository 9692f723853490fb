// Package quote checks a site's quotes of library source against a copy
// (-check-sources), moves them to another version (-repin), and says whether
// the newest releases still hold them (-drift).
package quote

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"errref/internal/casefold"
	"errref/internal/cite"
)

// A Tree is the files of one version of a repository, however they are
// kept: a folder of files (a Copy), or a tag read from a git clone.
type Tree struct {
	Version string // the version the files are at, as a citation writes it
	Where   string // names the copy in messages: "../sdk-v1.29.0"
	// ReadFile reads a slash path; a file the version lacks wraps fs.ErrNotExist.
	ReadFile func(path string) ([]byte, error)
}

func (t Tree) lines(path string) ([]string, error) {
	data, err := t.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"), nil
}

// A Copy is a local copy of a cited repository: a git checkout at its
// HEAD, or a folder of files at the version given with it, if any.
type Copy struct {
	Repo    string
	Version string // declared with REPO@VERSION=DIR
	Dir     string
	clone   *clone // a git checkout, else nil
	head    string // the commit of its HEAD
}

// parseCopy reads REPO=DIR or REPO@VERSION=DIR, the argument of flag; a
// target (-repin) must give its version, which is written into the page.
func parseCopy(flag, arg string, target bool) (Copy, error) {
	spec, dir, ok := strings.Cut(arg, "=")
	s := Copy{Dir: dir}
	s.Repo, s.Version, _ = strings.Cut(spec, "@")
	switch {
	case target && (!ok || s.Repo == "" || s.Version == "" || dir == ""):
		return Copy{}, fmt.Errorf("%s %q: write REPO@VERSION=DIR, for example modelcontextprotocol/python-sdk@v1.30.0=../sdk-v1.30.0", flag, arg)
	case !ok || spec == "" || dir == "":
		return Copy{}, fmt.Errorf("%s %q: write REPO=DIR or REPO@VERSION=DIR, for example modelcontextprotocol/python-sdk=../python-sdk", flag, arg)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return Copy{}, fmt.Errorf("%s %s: %s is not a folder", flag, s.Repo, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		if s.Version == "" { // its files could be of any version
			return Copy{}, fmt.Errorf("%s %s: %s is not a git checkout: write %s@VERSION=%s, VERSION the release its files are of", flag, s.Repo, dir, s.Repo, dir)
		}
		return s, nil
	}
	var err error
	if s.clone, err = openClone(dir); err == nil {
		s.head, err = s.clone.commit("HEAD")
	}
	if err != nil {
		return Copy{}, fmt.Errorf("%s %s: %v", flag, s.Repo, err)
	}
	if c, _ := s.clone.commit(s.Version); s.Version != "" && c != s.head {
		return Copy{}, fmt.Errorf("%s %s@%s: %s is checked out at %.12s, not at %s", flag, s.Repo, s.Version, dir, s.head, s.Version)
	}
	return s, nil
}

// versionOf is "" when s holds the version c cites, else what differs.
func (s Copy) versionOf(c cite.Spec) string {
	switch {
	case s.clone != nil:
		commit, err := s.clone.commit(c.Version)
		if err != nil {
			return fmt.Sprintf("%s is at %.12s, and %s is not a version it knows", s.Dir, s.head, c.Version)
		}
		if commit != s.head {
			return fmt.Sprintf("%s is at %.12s, not at %s (%.12s)", s.Dir, s.head, c.Version, commit)
		}
	case s.Version != c.Version:
		return fmt.Sprintf("%s holds %s", s.Dir, s.Version)
	}
	return ""
}

// tree reads the files of s's folder, never outside it; of a checkout,
// the commit's, not an edit or an untracked file in its work tree.
func (s Copy) tree() Tree {
	return Tree{Version: s.Version, Where: s.Dir, ReadFile: func(name string) ([]byte, error) {
		if s.clone != nil {
			return s.clone.readFile(s.head, name)
		}
		root, err := os.OpenRoot(s.Dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		if !casefold.Exact(root.FS(), name) { // found in another case on a Mac or Windows: the page's link to GitHub is not
			return nil, &os.PathError{Op: "open", Path: name, Err: os.ErrNotExist}
		}
		return root.ReadFile(name)
	}}
}
