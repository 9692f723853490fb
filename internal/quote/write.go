package quote

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"errref/internal/site"
)

// edit rewrites the specs of the citations held, and no other byte. It
// returns the page files it edits as the build read them, and as edited.
func edit(s *site.Site, results []Result) (read, edited map[string][]byte) {
	read, edited = map[string][]byte{}, map[string][]byte{}
	for _, p := range s.Pages {
		rs := slices.DeleteFunc(slices.Clone(results), func(r Result) bool { return !r.held() || r.Citation.File != p.File })
		if len(rs) == 0 {
			continue
		}
		slices.SortFunc(rs, func(x, y Result) int { return x.Citation.Span[0] - y.Citation.Span[0] })
		var b bytes.Buffer
		last := 0
		for _, r := range rs {
			b.Write(p.Raw()[last:r.Citation.Span[0]])
			b.WriteString(r.To.String())
			last = r.Citation.Span[1]
		}
		b.Write(p.Raw()[last:])
		read[p.File], edited[p.File] = p.Raw(), b.Bytes()
	}
	return read, edited
}

// writeDiff prints a unified diff without context: a spec never holds a
// newline, so each line changed is one line before and one after.
func writeDiff(w io.Writer, name string, old, cur []byte) {
	ol, cl := strings.Split(string(old), "\n"), strings.Split(string(cur), "\n")
	fmt.Fprintf(w, "--- %s\n+++ %s\n", name, name)
	for i := 0; i < len(ol); i++ {
		if ol[i] == cl[i] {
			continue
		}
		j := i
		for j < len(ol) && ol[j] != cl[j] {
			j++
		}
		if j-i == 1 {
			fmt.Fprintf(w, "@@ -%d +%d @@\n", i+1, i+1)
		} else {
			fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@\n", i+1, j-i, i+1, j-i)
		}
		fmt.Fprintf(w, "-%s\n+%s\n", strings.Join(ol[i:j], "\n-"), strings.Join(cl[i:j], "\n+"))
		i = j // past the end, or a line the same
	}
}

// beforeRename lets a test change a file just before it is renamed over.
var beforeRename = func(path string) {}

// write renames a temporary file over each edited one, and writes nothing
// while any is not on disk as the build read it: a newer edit would be lost.
func write(root string, read, edited map[string][]byte) error {
	names := slices.Sorted(maps.Keys(edited))
	for _, name := range names {
		if err := unchanged(root, name, read[name]); err != nil {
			return fmt.Errorf("%w: nothing written", err)
		}
	}
	for i, name := range names {
		if err := rewrite(root, name, read[name], edited[name]); err != nil {
			msg := fmt.Sprintf("%v: %s not written", err, name)
			if i > 0 {
				msg += "; already written: " + strings.Join(names[:i], ", ")
			}
			return errors.New(msg)
		}
	}
	return nil
}

// rewrite renames a temporary file over name if that is still what was read.
func rewrite(root, name string, read, data []byte) error {
	path := filepath.Join(root, filepath.FromSlash(name))
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".repin-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if err = errors.Join(err, f.Sync(), f.Close(), os.Chmod(f.Name(), fi.Mode().Perm())); err != nil {
		return err
	}
	beforeRename(path)
	if err := unchanged(root, name, read); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// unchanged fails if name is not on disk as read, or is a link (not replaced).
func unchanged(root, name string, read []byte) error {
	path := filepath.Join(root, filepath.FromSlash(name))
	switch fi, err := os.Lstat(path); {
	case err != nil:
		return fmt.Errorf("%s: %w", name, err)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file (a link?): renaming over it would replace it; edit it by hand", name)
	}
	now, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if !bytes.Equal(now, read) {
		return fmt.Errorf("%s changed since the build read it: run the command again on the file as it is now", name)
	}
	return nil
}
