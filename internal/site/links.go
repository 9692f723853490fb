package site

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// checkLinks resolves every link between pages as a browser does, and
// refuses one that leads to no file the build writes, or to no id there.
func (s *Site) checkLinks() error {
	byOut := map[string]*Page{}
	for _, p := range s.Pages {
		byOut[p.Out] = p
	}
	var errs []error
	for _, p := range s.Pages {
		base := &url.URL{Path: p.URL}
		for _, href := range p.out.Links {
			ref, err := url.Parse(href)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: the link %q is not a URL: %v", locate(p, s.tmpl.src, href), href, err))
				continue
			}
			to := base.ResolveReference(ref)
			name := servedFile(s.Files, to.Path)
			if name == "" {
				errs = append(errs, fmt.Errorf("%s: the link %q leads to %s, where the build makes no page or file: fix the path (pages are /SECTION/NAME/)", locate(p, s.tmpl.src, href), href, to.Path))
				continue
			}
			if target, ok := byOut[name]; ok && to.Fragment != "" && !target.out.IDs[to.Fragment] {
				errs = append(errs, fmt.Errorf("%s: the link %q names #%s, which %s (%s) does not make: link to one of its headings' ids", locate(p, s.tmpl.src, href), href, to.Fragment, target.URL, target.File))
			}
		}
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errors.Join(errs...)
}

// servedFile is what Netlify serves for path, or "": /x/ is x/index.html; /x, x or x/index.html.
func servedFile(files map[string][]byte, path string) string {
	name := strings.TrimPrefix(path, "/")
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	for _, n := range []string{name, name + "/index.html"} {
		if _, ok := files[n]; ok {
			return n
		}
	}
	return ""
}

// checkClicks refuses a click name that two pages use: a click event
// carries its name alone, so the report could not tell them apart.
func (s *Site) checkClicks() error {
	first := map[string]*Page{} // name -> the page of its first use
	var errs []error
	for _, p := range s.Pages {
		for _, name := range p.out.Clicks {
			if f, ok := first[name]; !ok {
				first[name] = p
			} else if f != p {
				errs = append(errs, fmt.Errorf("%s: the click name %q is used at %s too: a click event carries only its name, so each is one page's: rename one (copy=NAME)", locate(p, s.tmpl.src, "copy="+name), name, locate(f, s.tmpl.src, "copy="+name)))
			}
		}
	}
	return errors.Join(errs...)
}

// writeRedirects writes _redirects, a 301 from each alias to its page. It
// refuses an alias at a file the build writes (served first), or two pages'.
func (s *Site) writeRedirects() error {
	var lines []string
	var errs []error
	claimed := map[string]string{} // alias -> where
	for _, p := range s.Pages {
		at := fmt.Sprintf("%s:%d", p.File, max(p.Meta.AliasesLine, 1))
		for _, a := range p.Meta.Aliases {
			if name := servedFile(s.Files, a); name != "" {
				errs = append(errs, fmt.Errorf("%s: alias %q is public/%s, which the build writes: a reader there gets that file, never the redirect: remove the alias", at, a, name))
				continue
			}
			if prev, ok := claimed[a]; ok {
				errs = append(errs, fmt.Errorf("%s: alias %q is claimed by %s too: keep it on one page", at, a, prev))
				continue
			}
			claimed[a] = at
			lines = append(lines, a+" "+p.URL+" 301")
		}
	}
	if err := errors.Join(errs...); err != nil || len(lines) == 0 {
		return err
	}
	if _, ok := s.Files["_redirects"]; ok {
		return fmt.Errorf("%s/_redirects: the build writes _redirects itself, from the pages' aliases (%s): "+
			"keep the redirects in one place, the file or the aliases", StaticDir, claimed[strings.Fields(lines[0])[0]])
	}
	s.Files["_redirects"] = []byte("# Made by the build from the pages' aliases.\n" + strings.Join(lines, "\n") + "\n")
	return nil
}
