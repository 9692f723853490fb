package site

import (
	"errors"
	"fmt"
	"strings"
)

// writeRedirects writes _redirects, Netlify's list of redirects, with a
// 301 from each page's aliases to the page. An alias that a page or file
// of the build holds would never redirect (Netlify serves the file
// first), and one that two pages claim would send readers to one of
// them: both are refused.
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
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if len(lines) > 0 {
		s.Files["_redirects"] = []byte("# Made by the build from the pages' aliases.\n" + strings.Join(lines, "\n") + "\n")
	}
	return nil
}
