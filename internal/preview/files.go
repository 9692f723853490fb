// The output folder, served as Netlify serves it (netlify.toml's headers,
// index.html, 404.html), with the reload script in every page.

package preview

import (
	"bytes"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"

	"errref/internal/casefold"
)

type headerRule struct {
	For    string            `toml:"for"`
	Values map[string]string `toml:"values"`
}

// siteHeaders sets netlify.toml's headers for the request's path.
func (s *Server) siteHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, rule := range *s.headers.Load() {
			if match(rule.For, r.URL.Path) {
				for k, v := range rule.Values {
					w.Header().Set(k, v)
				}
			}
		}
		h.ServeHTTP(w, r)
	})
}

// match is Netlify's path pattern, as far as netlify.toml uses it: an exact
// path, or * standing for any run of characters.
func match(pattern, p string) bool {
	prefix, suffix, star := strings.Cut(pattern, "*")
	if !star {
		return p == pattern
	}
	return len(p) >= len(prefix)+len(suffix) && strings.HasPrefix(p, prefix) && strings.HasSuffix(p, suffix)
}

// file serves from the output folder through os.Root, which refuses a way
// out of it, opened for each request: a build replaces it whole.
func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	root, err := os.OpenRoot(s.o.Out)
	if err != nil {
		http.Error(w, "no build yet", http.StatusServiceUnavailable)
		return
	}
	defer root.Close()
	w.Header().Set("Cache-Control", "no-store")
	name := path.Clean("/" + r.URL.Path)
	want := name
	if strings.HasSuffix(r.URL.Path, "/") {
		want = path.Join(name, "index.html")
	}
	fi, err := root.Stat(want[1:])
	if err == nil && !casefold.Exact(root.FS(), want[1:]) {
		err = os.ErrNotExist // /PAY/ found on a Mac or Windows, which Netlify answers 404
	}
	switch {
	case err == nil && fi.IsDir():
		// To the cleaned path: /%2fevil.example/..%2fpay is /pay, and a
		// Location of //evil.example/../pay/ would leave the site. The query
		// goes along, as on Netlify: a link's outreach code and campaign.
		http.Redirect(w, r, (&url.URL{Path: name + "/", RawQuery: r.URL.RawQuery}).String(), http.StatusMovedPermanently)
	case err != nil:
		servePage(w, r, root, "404.html", http.StatusNotFound)
	case strings.HasSuffix(want, ".html"):
		servePage(w, r, root, want[1:], http.StatusOK)
	default:
		http.FileServerFS(root.FS()).ServeHTTP(w, r)
	}
}

// servePage serves an HTML page with the reload script put in as an
// external file, which the build's output never holds, and the CSP allows.
func servePage(w http.ResponseWriter, r *http.Request, root *os.Root, name string, status int) {
	data, err := root.ReadFile(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	data = bytes.Replace(data, []byte("</head>"), []byte(`<script src="/_preview/reload.js" defer></script></head>`), 1)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(data) // net/http sends a HEAD its length, not its bytes
}
