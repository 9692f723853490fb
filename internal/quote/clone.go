package quote

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A clone is a local git clone of a cited repository, bare or not. It is
// only read, with the git command: its tags with for-each-ref, the files
// at a tag with one cat-file --batch, which writes nothing (no index, no
// lock, no fetch).
type clone struct {
	dir   string // as given
	env   []string
	cat   *catFile
	files map[string]blob // by TAG:PATH, read once however many quotes it holds
	err   error           // the first failure to read, which makes every answer unsure
}

type blob struct {
	data []byte
	kind string // "blob", another type, or "" when there is none
}

// locating are the variables that would point git at another repository
// than the folder given, or at other objects than its own.
var locating = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE",
	"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_REPLACE_REF_BASE"}

// openClone checks that dir is a git repository of its own, not a folder
// inside one (git would read the enclosing repository), and prepares to
// read it.
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
	c := &clone{dir: dir, files: map[string]blob{}}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !slices.Contains(locating, strings.ToUpper(name)) {
			c.env = append(c.env, kv)
		}
	}
	c.env = append(c.env,
		// Look for the repository in dir itself, never above it.
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(abs),
		"GIT_OPTIONAL_LOCKS=0",     // no index refresh
		"GIT_NO_LAZY_FETCH=1",      // a partial clone does not fetch what it lacks (git 2.45 on)
		"GIT_NO_REPLACE_OBJECTS=1", // the tag's own files, not replacements
		"GIT_TERMINAL_PROMPT=0",
		"GIT_LITERAL_PATHSPECS=1", // a path is a path, not a pattern
	)
	if _, err := c.git("rev-parse", "--absolute-git-dir"); err != nil {
		return nil, fmt.Errorf("%s is not a git repository: %w", dir, err)
	}
	return c, nil
}

func (c *clone) command(args ...string) *exec.Cmd {
	cmd := exec.Command("git", append([]string{"-C", c.dir}, args...)...)
	cmd.Env = c.env
	return cmd
}

func (c *clone) git(args ...string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := c.command(args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("git %s: %s", args[0], msg)
		}
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}

// commit is the commit rev names, such as HEAD or a tag.
func (c *clone) commit(rev string) (string, error) {
	out, err := c.git("rev-parse", "--verify", "-q", rev+"^{commit}")
	return strings.TrimSpace(string(out)), err
}

// A tag is one tag of a clone and the object it names when peeled (a
// commit, for a release).
type tag struct {
	name   string
	object string
}

// tags lists the clone's tags.
func (c *clone) tags() ([]tag, error) {
	out, err := c.git("for-each-ref", "--format=%(refname)%00%(objectname)%00%(*objectname)", "refs/tags/")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.dir, err)
	}
	var tags []tag
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		f := strings.Split(line, "\x00")
		if len(f) != 3 {
			continue // no tags: one empty line
		}
		t := tag{name: strings.TrimPrefix(f[0], "refs/tags/"), object: f[1]}
		if f[2] != "" {
			t.object = f[2] // an annotated tag: the commit it tags
		}
		tags = append(tags, t)
	}
	return tags, nil
}

// readFile reads path at the tag, as git holds it (no line-ending or
// other filter applied: what GitHub shows at the tag). A path the tag
// lacks, or that is a folder there, wraps fs.ErrNotExist; any other
// failure is kept in c.err, so that no answer is given from a clone that
// could not be read, and no file is called gone that is only unread.
func (c *clone) readFile(tag, path string) ([]byte, error) {
	if c.err != nil {
		return nil, c.err
	}
	if c.cat == nil {
		cat, err := startCat(c)
		if err != nil {
			c.err = fmt.Errorf("%s: %w", c.dir, err)
			return nil, c.err
		}
		c.cat = cat
	}
	name := "refs/tags/" + tag + ":" + path
	b, ok := c.files[name]
	if !ok {
		var err error
		b.data, b.kind, err = c.cat.read(name)
		if err != nil {
			c.cat.close() // and so its stderr is whole
			c.err = fmt.Errorf("%s: git cat-file: %w%s", c.dir, err, c.cat.stderrText())
			return nil, c.err
		}
		if b.kind == "" {
			// cat-file says "missing" alike for a path the tag lacks and
			// for one whose object the clone lacks (a partial or damaged
			// clone): only the tag's tree tells which.
			listed, err := c.git("ls-tree", "--full-tree", "--name-only", "refs/tags/"+tag, "--", path)
			if err == nil && len(listed) > 0 {
				err = fmt.Errorf("%s at %s is in the tag's tree, but its content is not in the clone (a partial or damaged clone): clone it whole", path, tag)
			}
			if err != nil {
				c.err = fmt.Errorf("%s: %w", c.dir, err)
				return nil, c.err
			}
		}
		c.files[name] = b
	}
	if b.kind != "blob" {
		return nil, fmt.Errorf("%s at %s: %w", path, tag, fs.ErrNotExist)
	}
	return b.data, nil
}

func (c *clone) close() {
	if c.cat != nil {
		c.cat.close()
	}
}

// catFile is one git cat-file --batch: a name in, the object out.
type catFile struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer // read only once closed
	closed bool
}

func startCat(c *clone) (*catFile, error) {
	f := &catFile{cmd: c.command("cat-file", "--batch")}
	f.cmd.Stderr = &f.stderr
	var err error
	if f.in, err = f.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := f.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	f.out = bufio.NewReaderSize(out, 64<<10)
	if err := f.cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return f, nil
}

// read returns the object's content and its type, "" when there is no
// such object.
func (f *catFile) read(name string) ([]byte, string, error) {
	if _, err := io.WriteString(f.in, name+"\n"); err != nil {
		return nil, "", err
	}
	head, err := f.out.ReadString('\n')
	if err != nil {
		return nil, "", fmt.Errorf("reading its answer: %w", err)
	}
	fields := strings.Fields(head)
	switch {
	case len(fields) == 2 && fields[1] == "missing":
		return nil, "", nil
	case len(fields) != 3:
		return nil, "", fmt.Errorf("%s: %s", name, strings.TrimSpace(head))
	}
	size, err := strconv.Atoi(fields[2])
	if err != nil {
		return nil, "", fmt.Errorf("%s: %s", name, strings.TrimSpace(head))
	}
	data := make([]byte, size+1) // and the newline after it
	if _, err := io.ReadFull(f.out, data); err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", name, err)
	}
	return data[:size], fields[1], nil
}

func (f *catFile) stderrText() string {
	if msg := strings.TrimSpace(f.stderr.String()); msg != "" {
		return ": " + msg
	}
	return ""
}

func (f *catFile) close() {
	if f.closed {
		return
	}
	f.closed = true
	f.in.Close()
	f.cmd.Wait()
}
