package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"golang.org/x/sync/errgroup"

	"errref/internal/frontmatter"
	"errref/internal/settings"
)

// loadSettings reads site.toml into a new Site. An unset or placeholder
// setting is a warning, or with publish an error returned with the Site.
func loadSettings(site fs.FS, getenv func(string) string, publish bool) (*Site, error) {
	set, err := settings.Load(site, getenv)
	if err != nil {
		return nil, err
	}
	s := &Site{Files: map[string][]byte{}, Settings: set, publish: publish}
	missing, stand := set.Missing(), set.Placeholders()
	if publish && len(missing) > 0 {
		return s, fmt.Errorf("%s: refusing to publish while these settings are unset: %s", settings.File, strings.Join(missing, "; "))
	}
	if publish && len(stand) > 0 {
		return s, fmt.Errorf("%s: refusing to publish placeholder settings:\n%s", settings.File, strings.Join(stand, "\n"))
	}
	for _, m := range missing {
		s.Warnings = append(s.Warnings, fmt.Sprintf("%s: %s is not set: the page shows a placeholder; -publish refuses to build", settings.File, m))
	}
	for _, p := range stand {
		s.Warnings = append(s.Warnings, fmt.Sprintf("%s: %s; -publish refuses to build", settings.File, p))
	}
	return s, nil
}

// loadPages reads content/**/*.md, each published or refused by name;
// without content/index.md, the home page is templates/home.html.
func loadPages(site fs.FS, prev map[string]*Page, changed map[string]bool, set settings.Settings) ([]*Page, error) {
	var names []string // the pages' files, as the folder spells them
	var errs []error
	err := fs.WalkDir(site, ContentDir, func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			if rel == ContentDir && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return fmt.Errorf("%s: %w", rel, err)
		}
		name := d.Name()
		if rel != ContentDir && Ignored(name) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		ext := path.Ext(name)
		switch {
		case d.Type()&fs.ModeSymlink != 0 && isDir(site, rel):
			// fs.WalkDir does not follow it: the build would pass without its pages.
			errs = append(errs, fmt.Errorf("%s: a link to a folder, whose pages the build does not read: put the folder itself there", rel))
		case !d.IsDir() && strings.HasSuffix(strings.ToLower(name), ".md.txt"): // else left out unsaid
			errs = append(errs, fmt.Errorf("%s: a page's file ends in .md, not .txt (which Notepad adds, and Explorer hides): rename it to %s", rel, strings.TrimSuffix(name, ext)))
		case d.IsDir() || !strings.EqualFold(ext, ".md") && !strings.EqualFold(ext, ".markdown"):
			return nil
		case strings.EqualFold(name, "index.md") && name != "index.md":
			// As the folder spells it: where case folds (a Mac, Windows), a stat
			// of index.md finds Index.md, the page /Index/ on Netlify.
			errs = append(errs, fmt.Errorf("%s: a folder's own page is index.md, in lower case: rename it to index.md", rel))
		case ext != ".md":
			errs = append(errs, fmt.Errorf("%s: a page's file ends in .md, in lower case: rename it to %s.md", rel, strings.TrimSuffix(name, ext)))
		default:
			names = append(names, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s/: no pages: add %s/SECTION/NAME.md, Markdown with TOML front matter between +++ lines", ContentDir, ContentDir)
	}
	loaded, loadErrs := make([]*Page, len(names)), make([]error, len(names))
	// Side by side: one after another, a thousand files took 25 to 40 ms to read.
	var g errgroup.Group
	g.SetLimit(16)
	for i, rel := range names {
		g.Go(func() error {
			loaded[i], loadErrs[i] = loadPage(site, rel, prev[rel], changed[rel])
			return nil // each file's error is its own, in loadErrs
		})
	}
	g.Wait()
	var pages []*Page
	byOut := map[string]*Page{}
	for i, p := range loaded {
		if loadErrs[i] != nil {
			errs = append(errs, loadErrs[i])
			continue
		}
		if prev, ok := byOut[p.Out]; ok {
			errs = append(errs, fmt.Errorf("%s:1: this page and %s both map to public/%s: set a different url in one front matter", p.File, prev.File, p.Out))
			continue
		}
		byOut[p.Out] = p
		pages = append(pages, p)
	}
	if byOut["index.html"] == nil && len(errs) == 0 {
		pages = append(pages, &Page{
			File: homeFile, URL: "/", Out: "index.html", Home: true,
			Meta: frontmatter.Meta{Title: set.Title, Description: set.Description, Counter: new(bool)},
		})
	}
	return pages, errors.Join(errs...)
}

// loadPage reads rel, content/NAME, and maps it to its output path. A file not
// changed, of old's size and modification time, is not read again; old's bytes
// are not parsed again.
func loadPage(site fs.FS, rel string, old *Page, changed bool) (*Page, error) {
	name := strings.TrimPrefix(rel, ContentDir+"/")
	// Stat before read: an edit in between is seen next time.
	fi, err := fs.Stat(site, rel)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	var src []byte
	if old != nil && !changed && !fi.ModTime().IsZero() && old.stat.Size() == fi.Size() && old.stat.ModTime().Equal(fi.ModTime()) {
		src = old.raw
	} else if src, err = fs.ReadFile(site, rel); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	dir, _ := path.Split(name)
	p := &Page{File: rel, raw: src, stat: fi, Section: strings.TrimSuffix(dir, "/")}
	if old != nil && bytes.Equal(old.raw, src) {
		// The same bytes parse the same; the page is a new one all the same,
		// old left as it was.
		p.Meta, p.src, p.first = old.Meta, old.src, old.first
	} else if p.Meta, p.src, p.first, err = frontmatter.Parse(rel, src); err != nil {
		return nil, err
	}
	p.URL = frontmatter.PageURL(strings.TrimSuffix(name, ".md"), p.Meta.URL)
	if p.Meta.URL == "" && p.URL != "/404.html" && !frontmatter.IsPath(p.URL) {
		return nil, fmt.Errorf("%s:1: the page's path %q, made of its file's name, may hold only letters, digits and - _ . ~ "+
			"between slashes, and no dot last, which Windows drops: rename the file, or set url = \"/SECTION/NAME/\" in its front matter", rel, p.URL)
	}
	p.Out = strings.TrimPrefix(p.URL, "/") + "index.html"
	if p.URL == "/404.html" {
		p.Out = "404.html"
	}
	return p, p.parseMessages()
}

// homeFile names the generated home page in errors and in the Prev map.
const homeFile = TemplateDir + "/home.html"

// Ignored reports whether a file in content/ or static/, which the build skips
// and whose saves the preview ignores, is not the author's: hidden (.DS_Store),
// an editor's lock or backup (.#index.md, #index.md#, index.md~), or Windows
// Explorer's (Thumbs.db, desktop.ini).
func Ignored(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") || strings.HasSuffix(name, "~") ||
		strings.EqualFold(name, "Thumbs.db") || strings.EqualFold(name, "desktop.ini")
}

func isDir(site fs.FS, name string) bool {
	fi, err := fs.Stat(site, name)
	return err == nil && fi.IsDir()
}
