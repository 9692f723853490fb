package preview

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"errref/internal/benchsite"
	"errref/internal/output"
	"errref/internal/report"
	"errref/internal/site"
	"errref/internal/store"
	"errref/internal/tally"
)

// start copies the generator's fixture site into a temp folder and serves
// its preview.
func start(t testing.TB, opts ...func(*Options)) (root string, srv *httptest.Server, log *syncBuffer) {
	t.Helper()
	root = t.TempDir()
	// The generator's fixture site, not this repository's page.
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "site", "testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	srv, log = startIn(t, root, opts...)
	return root, srv, log
}

// startIn serves the site at root, with the repository's netlify.toml,
// whose headers the preview serves.
func startIn(t testing.TB, root string, opts ...func(*Options)) (srv *httptest.Server, log *syncBuffer) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "netlify.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "netlify.toml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	log = &syncBuffer{}
	o := Options{Root: root, Out: filepath.Join(root, "public"), Log: log, Events: filepath.Join(root, "events.jsonl")}
	for _, f := range opts {
		f(&o)
	}
	srv = httptest.NewUnstartedServer(nil)
	o.Addr = srv.Listener.Addr().String()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	watched := s.Watch(ctx)
	srv.Config.Handler = s
	srv.Start()
	// The watcher closed before the folder goes: on Windows its handles
	// keep the folders from being removed.
	t.Cleanup(func() {
		cancel()
		select {
		case <-watched:
		case <-time.After(10 * time.Second): // a watcher stuck for good fails here, not at go test's timeout
			t.Error("the watcher has not stopped 10 s after the preview was told to")
		}
		srv.Close()
		s.Close()
	})
	select {
	case <-watched:
		t.Fatal("the watcher stopped before it watched the site")
	default:
	}
	return srv, log
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// stream subscribes to the reload stream and returns its events, each
// "kind: data".
func stream(t testing.TB, srv *httptest.Server) <-chan string {
	t.Helper()
	resp, err := http.Get(srv.URL + "/_preview/events")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	out := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		var kind, data string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				kind = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				data += strings.TrimPrefix(line, "data: ") + "\n"
			case line == "" && kind != "":
				out <- kind + ": " + data
				kind, data = "", ""
			}
		}
	}()
	return out
}

func next(t testing.TB, events <-chan string) string {
	t.Helper()
	select {
	case e := <-events:
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no event on the reload stream")
		return ""
	}
}

// until waits for done, checked at each reload event and every 100 ms,
// and fails saying what is missing 30 s on: long enough for a busy
// machine, so that only a save never built fails.
func until(t testing.TB, events <-chan string, missing string, done func() bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for !done() {
		select {
		case <-events:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("%s 30 s after the save", missing)
		}
	}
}

func get(t testing.TB, url string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// save writes a file as editors do: a temp file, then a rename over it.
func save(t testing.TB, path, content string) {
	t.Helper()
	tmp := path + ".swp~"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

const page404 = "+++\ntitle = \"Page not found\"\ndescription = \"x\"\nnoindex = true\ncounter = false\n+++\n\n"

// TestSameSizeEditAtTheSameTimeIsShown: a save that keeps the file's size
// and modification time (a one-letter fix under a clock that counts whole
// seconds) is still shown: the watcher names the file it saw change, and
// the build reads it again (site.Options.Changed).
func TestSameSizeEditAtTheSameTimeIsShown(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	md := filepath.Join(root, "content", "404.md")
	for i, text := range []string{"First edit.\n", "Fixed edit.\n"} {
		var old os.FileInfo
		if i > 0 {
			fi, err := os.Stat(md)
			if err != nil {
				t.Fatal(err)
			}
			old = fi
		}
		save(t, md, page404+text)
		if old != nil {
			if err := os.Chtimes(md, old.ModTime(), old.ModTime()); err != nil {
				t.Fatal(err)
			}
		}
		if e := next(t, events); e != "reload: \n" {
			t.Fatalf("event = %q, want reload", e)
		}
		if _, body, _ := get(t, srv.URL+"/404.html"); !strings.Contains(body, strings.TrimSpace(text)) {
			t.Errorf("%q is not served", strings.TrimSpace(text))
		}
	}
}

// TestAnotherBuildsOutputIsWrittenOver: a go run ./cmd/build beside the
// preview replaces the output folder, perhaps with older sources or other
// settings; the preview's next build writes the folder whole, not only the
// files its own last build changed, which would serve the other build's
// pages as its own. Two builds put the preview's own folder back in place,
// as their spare (docs/output.md), holding the second build's site.
func TestAnotherBuildsOutputIsWrittenOver(t *testing.T) {
	for _, builds := range []int{1, 2} {
		t.Run(fmt.Sprint(builds), func(t *testing.T) {
			root, srv, _ := start(t)
			events := stream(t, srv)
			for range builds {
				if err := output.Write(filepath.Join(root, "public"), map[string][]byte{"index.html": []byte("another build's index")}); err != nil {
					t.Fatal(err)
				}
			}
			save(t, filepath.Join(root, "content", "404.md"), page404+"Edited.\n")
			if e := next(t, events); e != "reload: \n" {
				t.Fatalf("event = %q, want reload", e)
			}
			if _, body, _ := get(t, srv.URL+"/"); strings.Contains(body, "another build's index") {
				t.Error("/ is the other build's page, not the preview's")
			}
			if code, _, _ := get(t, srv.URL+"/pay/"); code != 200 {
				t.Errorf("/pay/: %d, want 200: a page the other build lacked is not written back", code)
			}
		})
	}
}

// TestAnEditorsTempFileBuildsNothing: an editor's swap or backup file,
// which the build skips, starts no build of its own; the save it comes
// before is the one the next reload shows. (A build for the temp file
// reloaded the page before the save was read, and a test reading the
// terminal on that reload saw nothing of the save.)
func TestAnEditorsTempFileBuildsNothing(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	for _, name := range []string{"404.md.swp~", ".#404.md", "#404.md#"} {
		if err := os.WriteFile(filepath.Join(root, "content", name), []byte("draft"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(200 * time.Millisecond) // past the watcher's wait for quiet
	save(t, filepath.Join(root, "content", "404.md"), page404+"Saved after the temp files.\n")
	if e := next(t, events); e != "reload: \n" {
		t.Fatalf("event = %q, want reload", e)
	}
	if _, body, _ := get(t, srv.URL+"/404.html"); !strings.Contains(body, "Saved after the temp files.") {
		t.Error("the first reload after the temp files does not show the save: they started a build of their own")
	}
}

func TestEditReloadsBreakShowsErrorRepairRecovers(t *testing.T) {
	root, srv, log := start(t)
	code, body, h := get(t, srv.URL+"/")
	if code != 200 || !strings.Contains(body, `<script src="/_preview/reload.js" defer></script>`) {
		t.Fatalf("GET / = %d, without the reload script", code)
	}
	if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("the preview lacks the production headers: %v", h)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "public", "index.html")); bytes.Contains(data, []byte("_preview")) {
		t.Error("the built output holds the reload script")
	}
	events := stream(t, srv)
	md := filepath.Join(root, "content", "404.md")

	save(t, md, page404+"First edit.\n")
	if e := next(t, events); e != "reload: \n" {
		t.Fatalf("event = %q, want reload", e)
	}
	if _, body, _ := get(t, srv.URL+"/404.html"); !strings.Contains(body, "First edit.") {
		t.Error("the edit is not served")
	}
	// One page saved, one page rendered; the others are kept.
	if !strings.Contains(log.String(), "built 3 pages (1 rendered)") {
		t.Errorf("after one page's edit the terminal says:\n%s\nwant built 3 pages (1 rendered)", log.String())
	}

	save(t, md, "+++\ntitle = \"x\"\n")
	e := next(t, events)
	if !strings.HasPrefix(e, "failed: ") || !strings.Contains(e, "content/404.md:1: front matter is not closed") {
		t.Fatalf("event = %q, want the error with file:line", e)
	}
	if _, body, _ := get(t, srv.URL+"/404.html"); !strings.Contains(body, "First edit.") {
		t.Error("after a failed build the last good page is not served")
	}
	if !strings.Contains(log.String(), "content/404.md:1: front matter is not closed") {
		t.Errorf("the terminal does not show the error: %s", log.String())
	}
	// A browser that loads now is told of the failure at once.
	if e := next(t, stream(t, srv)); !strings.HasPrefix(e, "failed: ") {
		t.Errorf("a new subscriber got %q, want the failure", e)
	}

	save(t, md, page404+"Repaired.\n")
	if e := next(t, events); e != "reload: \n" {
		t.Fatalf("event = %q, want reload after the repair", e)
	}
	if _, body, _ := get(t, srv.URL+"/404.html"); !strings.Contains(body, "Repaired.") {
		t.Error("the repair is not served")
	}
}

func TestNewFolderIsWatched(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	dir := filepath.Join(root, "static", "img")
	os.Mkdir(dir, 0o755)
	// The watcher adds the folder when it sees it, before the rebuild
	// that its creation starts: after that reload, a file in it is seen.
	next(t, events) // the new folder itself
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello"), 0o644)
	for {
		if e := next(t, events); e == "reload: \n" {
			if code, body, _ := get(t, srv.URL+"/img/a.txt"); code == 200 && body == "hello" {
				return
			}
		}
	}
}

// TestASaveDuringTheFirstBuildIsBuilt: the watcher watches before the
// first build, so a save while that build runs is built after it. The
// first build renders 404.html slowly, so that the save comes after it
// read the pages.
func TestASaveDuringTheFirstBuildIsBuilt(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "site", "testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(root, "templates", "base.html")
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(base, append(data, `{{if eq .Page.URL "/404.html"}}{{range 30000000}}{{end}}{{end}}`...), 0o644)
	s, err := New(Options{Root: root, Out: filepath.Join(root, "public"), Log: &syncBuffer{}, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	watching := make(chan (<-chan struct{}), 1)
	go func() { watching <- s.Watch(ctx) }()
	time.Sleep(300 * time.Millisecond)
	select {
	case watched := <-watching:
		cancel()
		<-watched
		t.Fatal("the first build ended before the save: make its 404.html slower")
	default:
	}
	save(t, filepath.Join(root, "content", "pay.md"), "+++\ntitle = \"Pay\"\ndescription = \"How to pay.\"\ncounter = false\n+++\n\nSaved during the first build.\n")
	watched := <-watching
	t.Cleanup(func() { cancel(); <-watched; s.Close() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if page, _ := os.ReadFile(filepath.Join(root, "public", "pay", "index.html")); bytes.Contains(page, []byte("Saved during the first build.")) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("10 s after the first build, the save made during it is not built")
		}
	}
}

// TestOnlyTheSourcesAreWatched: a folder made in the site's root, such as
// the output's swap folder (.public.new-*), is not watched: a file written
// in it builds nothing. The first build's own swap builds nothing either.
func TestOnlyTheSourcesAreWatched(t *testing.T) {
	root, _, log := start(t)
	swap := filepath.Join(root, ".public.new-1")
	os.Mkdir(swap, 0o755)
	time.Sleep(100 * time.Millisecond) // for a watcher that would add it
	os.WriteFile(filepath.Join(swap, "index.html"), []byte("<!doctype html>"), 0o644)
	time.Sleep(500 * time.Millisecond) // for a build it would start
	if n := strings.Count(log.String(), " rendered) in "); n != 1 {
		t.Errorf("%d builds, want the first alone:\n%s", n, log.String())
	}
}

// TestNothingOutsideTheOutputIsServed: no path leaves the output folder,
// and a folder without index.html is not listed.
func TestNothingOutsideTheOutputIsServed(t *testing.T) {
	root, srv, _ := start(t)
	os.WriteFile(filepath.Join(root, "secret.txt"), []byte("secret"), 0o644)
	os.Symlink(filepath.Join(root, "secret.txt"), filepath.Join(root, "public", "link.txt"))
	os.Mkdir(filepath.Join(root, "public", "bare"), 0o755)
	os.WriteFile(filepath.Join(root, "public", "bare", "secret.txt"), nil, 0o644)
	for _, p := range []string{"/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/link.txt", "/%2e%2e%2f%2e%2e%2fetc/passwd", "/../site.toml", "/bare/"} {
		req, _ := http.NewRequest("GET", srv.URL+p, nil)
		req.URL.Opaque = p // send the path as written, not cleaned by the client
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(b), "secret") || strings.Contains(string(b), "root:") || strings.Contains(string(b), "base_url") {
			t.Errorf("GET %s served a file outside the output folder, or a folder's listing", p)
		}
	}
}

// TestAPathInAnotherCaseIs404: a Mac's or Windows' file system finds
// public/pay/index.html for /PAY/, which Netlify answers 404: a link typed
// in another case, or a page's old name after a change of case only,
// seemed to work in the preview. Only a Mac or Windows (.ci/wine/test) can fail it.
func TestAPathInAnotherCaseIs404(t *testing.T) {
	_, srv, _ := start(t)
	for _, p := range []string{"/PAY/", "/Pay/index.html", "/pay/Index.html", "/Robots.txt"} {
		if code, _, _ := get(t, srv.URL+p); code != 404 {
			t.Errorf("GET %s: %d, want 404", p, code)
		}
	}
	if code, _, _ := get(t, srv.URL+"/pay/"); code != 200 {
		t.Errorf("GET /pay/: %d, want 200", code)
	}
}

func TestReceiver(t *testing.T) {
	_, srv, log := start(t)
	for _, tc := range []struct {
		method, body string
		want         int
	}{
		{"POST", `{"name":"human-candidate","path":"/","visible_ms":10012,"scrolled":true,"ref":"news.ycombinator.com"}`, 204},
		{"POST", `{"name":"copy-sketch"}`, 204},
		{"POST", `{"name":"checkout","checkout":"site"}`, 204},
		{"POST", `{"name":"view","path":"/","visible_ms":1,"scrolled":false,"extra":1}`, 400},
		{"POST", `not json`, 400},
		{"POST", `{"name":"checkout","checkout":"paypal"}`, 400},
		{"POST", `{"name":"copy-sketch","path":"/"}`, 400},
		{"POST", `{"name":"view","path":"/","visible_ms":"1","scrolled":false}`, 400},
		{"POST", `{"name":"x","pad":"` + strings.Repeat("a", 1100) + `"}`, 400},
		{"GET", ``, 405},
		{"PUT", `{"name":"x"}`, 405},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+"/api/event", strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "text/plain;charset=UTF-8")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s %.60s = %d %s, want %d", tc.method, tc.body, resp.StatusCode, b, tc.want)
		}
		if tc.want == 400 && len(bytes.TrimSpace(b)) == 0 {
			t.Errorf("400 without a reason for %.60s", tc.body)
		}
	}
	if !strings.Contains(log.String(), ` human-candidate path="/" visible_ms=10012 scrolled=true ref="news.ycombinator.com"`+"\n") {
		t.Errorf("terminal:\n%s", log.String())
	}
}

func TestNonLoopbackAddressWarns(t *testing.T) {
	var log syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	Serve(ctx, Options{Root: t.TempDir(), Out: filepath.Join(t.TempDir(), "public"), Addr: "0.0.0.0:0", Log: &log})
	if !strings.Contains(log.String(), "WARNING: -addr 0.0.0.0:0 is not a loopback address") {
		t.Errorf("log = %q", log.String())
	}
}

// BenchmarkSaveToReload measures a save, to the reload event that tells the
// browser to fetch the new page, on the real site's pages copied n times
// (benchsite, 20 sections), as docs/speed.md reports: an error page's
// body edited; at 1,000 pages also its title (which its neighbours and the
// index show), a page added, and a page deleted.
func BenchmarkSaveToReload(b *testing.B) {
	for _, n := range []int{1, 100, 1000} {
		for _, edit := range []string{"body", "title", "new", "delete"} {
			if n < 1000 && edit != "body" {
				continue
			}
			b.Run(fmt.Sprintf("pages=%d/edit=%s", n, edit), func(b *testing.B) {
				root := b.TempDir()
				if err := benchsite.Make(root, filepath.Join("..", ".."), n); err != nil {
					b.Fatal(err)
				}
				srv, _ := startIn(b, root)
				events := stream(b, srv)
				pages, _ := filepath.Glob(filepath.Join(root, "content", "s*", "*.md"))
				md := pages[len(pages)/2]
				orig, err := os.ReadFile(md)
				if err != nil {
					b.Fatal(err)
				}
				i := 0
				for b.Loop() {
					i++
					switch edit {
					case "body":
						save(b, md, string(orig)+"\nEdit "+strings.Repeat("x", i%7)+".\n")
					case "title": // at the title's end, which keeps the page's place
						save(b, md, strings.Replace(string(orig), "\"\n", fmt.Sprintf(" %d\"\n", i), 1))
					case "new": // with click names of its own, as benchsite gives each page
						page := strings.Replace(string(orig), "title = \"", fmt.Sprintf("title = \"New %d ", i), 1)
						save(b, filepath.Join(filepath.Dir(md), fmt.Sprintf("new%d.md", i)), strings.ReplaceAll(page, " copy=", fmt.Sprintf(" copy=new%d-", i)))
					case "delete":
						os.Remove(pages[i%len(pages)])
					}
					for next(b, events) != "reload: \n" {
					}
				}
			})
		}
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"/*", "/", true},
		{"/*", "/pay/", true},
		{"/*.css", "/style.0123456789.css", true},
		{"/*.css", "/measure.js", false},
		{"/*.css", "/.css", true},
		{"/measure.js", "/measure.js", true},
		{"/measure.js", "/measure.jsx", false},
		{"/a*a", "/a", false}, // prefix and suffix may not overlap
	} {
		if got := match(tc.pattern, tc.path); got != tc.want {
			t.Errorf("match(%q, %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

// TestOneCacheControlPerPath holds the real netlify.toml to one rule per
// header per path: two matching rules for one header leave the value to
// however Netlify merges them.
func TestOneCacheControlPerPath(t *testing.T) {
	var cfg struct {
		Headers []headerRule `toml:"headers"`
	}
	if _, err := toml.DecodeFile(filepath.Join("..", "..", "netlify.toml"), &cfg); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", "/pay/", "/404.html", "/measure.js", "/style.0123456789.css", "/favicon.svg", "/noscript.0123456789.css"} {
		seen := map[string][]string{}
		for _, h := range cfg.Headers {
			if !match(h.For, p) {
				continue
			}
			for k := range h.Values {
				seen[k] = append(seen[k], h.For)
			}
		}
		for k, rules := range seen {
			if len(rules) > 1 {
				t.Errorf("%s: %s is set by %d rules: %q", p, k, len(rules), rules)
			}
		}
	}
}

// TestATemplateThatHangsIsReportedAndTheFixRebuilds: a build that runs past
// its limit is reported, and the watcher, which never waited on it, builds
// the fixed template on the next save.
func TestATemplateThatHangsIsReportedAndTheFixRebuilds(t *testing.T) {
	root, srv, log := start(t, func(o *Options) { o.Timeout = 500 * time.Millisecond })
	events := stream(t, srv)
	page := filepath.Join(root, "templates", "page.html")
	good, _ := os.ReadFile(page)
	save(t, page, strings.Replace(string(good), "{{.Page.Body}}", "{{.Page.Body}}\n{{range 100000000000}}{{end}}", 1))
	if e := next(t, events); !strings.HasPrefix(e, "failed: ") || !strings.Contains(e, "templates/page.html:4: took longer than 500ms") {
		t.Fatalf("event = %q, want the time out with the template's line", e)
	}
	if !strings.Contains(log.String(), "took longer than 500ms") {
		t.Errorf("the terminal does not show the time out:\n%s", log.String())
	}
	save(t, page, string(good)+"\n")
	if e := next(t, events); e != "reload: \n" {
		t.Fatalf("after the fix, event = %q, want reload", e)
	}
}

// TestHostAndRedirect: the preview answers only at its own address (a
// DNS-rebinding page sends another Host, for pages and events alike), and
// redirects only to a cleaned path on itself, with the query the link had.
func TestHostAndRedirect(t *testing.T) {
	_, srv, _ := start(t)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		method, host, path string
		want               int
		location           string
	}{
		{"GET", "127.0.0.1:" + port, "/", 200, ""},
		{"GET", "localhost:" + port, "/", 200, ""},
		{"GET", "LOCALHOST:" + port, "/pay/", 200, ""},
		{"GET", "evil.example:" + port, "/", 403, ""},
		{"GET", "evil.example", "/", 403, ""},
		{"POST", "evil.example:" + port, "/api/event", 403, ""},
		{"GET", "127.0.0.1:" + port, "/pay", 301, "/pay/"},
		// An outreach link written without its slash keeps its code and campaign, as on Netlify.
		{"GET", "127.0.0.1:" + port, "/pay?oc=abc123&utm_source=x", 301, "/pay/?oc=abc123&utm_source=x"},
		{"GET", "127.0.0.1:" + port, "/%2fevil.example/..%2fpay", 301, "/pay/"},
		// ServeMux cleans the path first, then /pay is redirected as above.
		{"GET", "127.0.0.1:" + port, "//evil.example/../pay", 307, "/pay"},
		{"POST", "127.0.0.1:" + port, "/pay/", 405, ""},
		{"GET", "127.0.0.1:" + port, "/no-such-page", 404, ""},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(`{"name":"copy-sketch"}`))
		req.Host = tc.host
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want || resp.Header.Get("Location") != tc.location {
			t.Errorf("%s %s (Host %s) = %d Location %q, want %d %q", tc.method, tc.path, tc.host, resp.StatusCode, resp.Header.Get("Location"), tc.want, tc.location)
		}
	}
}

// TestDeletedHomePageKeepsTheLastGoodSite: removing content/index.md is a
// failed build: / is still served, and the error shows.
func TestDeletedHomePageKeepsTheLastGoodSite(t *testing.T) {
	root, srv, log := start(t)
	events := stream(t, srv)
	if err := os.Remove(filepath.Join(root, "content", "index.md")); err != nil {
		t.Fatal(err)
	}
	if e := next(t, events); !strings.HasPrefix(e, "failed: ") || !strings.Contains(e, "content/index.md: missing") {
		t.Fatalf("event = %q, want the missing home page", e)
	}
	if code, body, _ := get(t, srv.URL+"/"); code != 200 || !strings.Contains(body, "The explaining part.") {
		t.Errorf("GET / = %d after the home page was deleted, want the last good page", code)
	}
	if !strings.Contains(log.String(), "content/index.md: missing") {
		t.Errorf("terminal:\n%s", log.String())
	}
}

// TestEventsAreStoredAndReported: each valid event the preview receives is
// in its store, and /_preview/report shows the funnel from it, a view at a
// page's earlier path (its alias) on the page's row.
func TestEventsAreStoredAndReported(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "site", "testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	pay := filepath.Join(root, "content", "pay.md")
	data, _ := os.ReadFile(pay)
	if err := os.WriteFile(pay, bytes.Replace(data, []byte("counter = false\n"), []byte("counter = false\naliases = [\"/buy/\"]\n"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, _ := startIn(t, root)
	for _, body := range []string{
		`{"name":"view","path":"/buy/","visible_ms":7,"scrolled":false}`,
		`{"name":"view","path":"/","visible_ms":5,"scrolled":false,"campaign":{"utm_source":"<b>hn</b>"}}`,
		`{"name":"view","path":"/","visible_ms":6,"scrolled":true}`,
		`{"name":"human-candidate","path":"/","visible_ms":10001,"scrolled":true}`,
		`{"name":"checkout","checkout":"gumroad"}`,
		`{"name":"copy-x"}`,
		`{"name":"view","path":"/","visible_ms":1,"scrolled":false,"bad":1}`,
	} {
		resp, err := http.Post(srv.URL+"/api/event", "text/plain", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	// Acknowledged means written: the journal holds them already.
	today := time.Now().UTC().Format(time.DateOnly)
	cs, err := store.JournalCounts(filepath.Join(root, "events.jsonl"), today, today)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cs {
		n += c.N
	}
	if n != 6 {
		t.Errorf("%d events kept, want the 6 valid ones", n)
	}
	code, body, h := get(t, srv.URL+"/_preview/report")
	if code != 200 || h.Get("Refresh") == "" {
		t.Fatalf("GET /_preview/report = %d, Refresh %q", code, h.Get("Refresh"))
	}
	// Its policy is in its own meta tag; the site's would refuse its styles.
	if csp := h.Get("Content-Security-Policy"); csp != "" {
		t.Errorf("/_preview/report is served under the site's policy %q", csp)
	}
	// The same page as go run ./cmd/report -html writes from that store,
	// each click and guide on its page as the site builds.
	built, err := site.Build(site.Options{FS: os.DirFS(root)})
	if err != nil {
		t.Fatal(err)
	}
	clicks, guides, aliases := built.Places()
	q, _ := report.Period(time.Now(), 30*24*time.Hour, "", "")
	q.Aliases = aliases
	r, err := report.Load(context.Background(), journalAt(filepath.Join(root, "events.jsonl")), q)
	if err != nil {
		t.Fatal(err)
	}
	r.Place(clicks, guides)
	var want bytes.Buffer
	if err := report.HTML(&want, r); err != nil {
		t.Fatal(err)
	}
	if body != want.String() {
		t.Errorf("/_preview/report is not the report's page:\n%s", body)
	}
	for _, want := range []string{"Readers, ", `<span class="name">views</span> <span class="n">3</span>`, "&lt;b&gt;hn&lt;/b&gt;", `<td class="key">buy-link clicks gumroad</td><td>1</td>`, "click copy-x on content/index.md", `<td class="key">/pay/</td><td data-label="views"><span class="v">1 `} {
		if !strings.Contains(body, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(body, "/buy/") {
		t.Error("the view at /pay/'s alias /buy/ has a row of its own, not on /pay/'s")
	}
}

// TestTheReportPageNamesEventsNotStored: what PostgreSQL did not take
// waits in not-stored.jsonl, out of every count: the funnel page says how
// many wait there.
func TestTheReportPageNamesEventsNotStored(t *testing.T) {
	root, srv, _ := start(t)
	line := `{"ts":"2026-12-06T10:00:00Z","stored":false,"name":"view","path":"/","visible_ms":5,"scrolled":false}` + "\n"
	if err := os.WriteFile(filepath.Join(root, store.NotStored), []byte(line+line+line), 0o644); err != nil {
		t.Fatal(err)
	}
	code, body, _ := get(t, srv.URL+"/_preview/report")
	if want := "not-stored.jsonl in the site folder holds 3 events PostgreSQL did not take"; code != 200 || !strings.Contains(body, want) {
		t.Errorf("GET /_preview/report = %d, without %q:\n%s", code, want, body)
	}
}

// TestAFloodIsKeptWhole: 10,000 events posted at once are each answered
// 204 and each in the journal by then.
func TestAFloodIsKeptWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: 10,000 events posted at once; run without -short")
	}
	root, srv, _ := start(t)
	const n = 10_000
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1000, MaxConnsPerHost: 1000}}
	defer client.CloseIdleConnections()
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for range n {
		wg.Go(func() {
			resp, err := client.Post(srv.URL+"/api/event", "text/plain", strings.NewReader(`{"name":"copy-sketch"}`))
			code := 0
			if err == nil {
				code = resp.StatusCode
				resp.Body.Close()
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		})
	}
	wg.Wait()
	today := time.Now().UTC().Format(time.DateOnly)
	cs, err := store.JournalCounts(filepath.Join(root, "events.jsonl"), today, today)
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, c := range cs {
		kept += c.N
	}
	if codes[204] != n || kept != n {
		t.Errorf("answers %v; %d kept, want all %d answered 204 and kept", codes, kept, n)
	}
}

// TestAnEventNothingKeptIs503: when the journal cannot be written (a full
// disk), the page hears 503 and the terminal says why.
func TestAnEventNothingKeptIs503(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	_, srv, log := start(t, func(o *Options) { o.Events = "/dev/full" })
	resp, err := http.Post(srv.URL+"/api/event", "text/plain", strings.NewReader(`{"name":"copy-sketch"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", resp.StatusCode)
	}
	// The write's own error says why, in the system's words ("no space
	// left on device"; "Disk full." under Wine).
	if !strings.Contains(log.String(), "NOT KEPT") || !strings.Contains(log.String(), "write /dev/full: ") {
		t.Errorf("terminal:\n%s", log.String())
	}
}

// journalAt reads the preview's journal as the report does.
type journalAt string

func (p journalAt) Counts(_ context.Context, from, to string) ([]tally.Count, error) {
	return store.JournalCounts(string(p), from, to)
}

// TestWarningsArePrinted: the preview prints a build's warnings as go run
// ./cmd/build does (the same lines, for the unset settings and an unknown
// code language), on the first build and on each rebuild that changes
// them, and not again on a save that leaves them as they were.
func TestWarningsArePrinted(t *testing.T) {
	root, srv, log := start(t)
	events := stream(t, srv)
	fixture := func(name string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "warnings", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	printed := func(log string) []string {
		var ws []string
		for _, line := range strings.Split(log, "\n") {
			if w, ok := strings.CutPrefix(line, "warning: "); ok {
				ws = append(ws, w)
			}
		}
		return ws
	}
	// want is what go run ./cmd/build would print of the sources as they are.
	want := func() []string {
		b, err := site.Build(site.Options{FS: os.DirFS(root)})
		if err != nil {
			t.Fatal(err)
		}
		return b.Warnings
	}
	if got, w := printed(log.String()), want(); len(w) != 5 || !slices.Equal(got, w) {
		t.Fatalf("the first build printed the warnings %q, want the build's %q (4 unset settings, a contact at a reserved domain)", got, w)
	}
	home404, err := os.ReadFile(filepath.Join(root, "content", "404.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name, file, content string
		printed             bool // the build prints its warnings, all of them
		count               int  // how many the build has
	}{
		{"an unknown code language", "content/404.md", fixture("404-unknown-language.md"), true, 6},
		{"an edit that changes no warning", "content/404.md", fixture("404-unknown-language-edited.md"), false, 6},
		{"every setting set", "site.toml", fixture("site.toml"), true, 1},
		{"the language fixed", "content/404.md", string(home404), true, 0},
	} {
		from := len(log.String())
		save(t, filepath.Join(root, filepath.FromSlash(step.file)), step.content)
		if e := next(t, events); !strings.HasPrefix(e, "reload") {
			t.Fatalf("%s: %s", step.name, e)
		}
		got, w := printed(log.String()[from:]), want()
		if len(w) != step.count {
			t.Fatalf("%s: the build has the warnings %q, want %d", step.name, w, step.count)
		}
		switch {
		case !step.printed && len(got) > 0:
			t.Errorf("%s: the preview printed the warnings again: %q", step.name, got)
		case step.printed && !slices.Equal(got, w):
			t.Errorf("%s: the preview printed the warnings %q, want the build's %q", step.name, got, w)
		}
		if fixed := strings.Contains(log.String()[from:], "no warnings now"); fixed != (step.printed && step.count == 0) {
			t.Errorf("%s: the preview printed:\n%s", step.name, log.String()[from:])
		}
	}
}

// TestDeletedPageTakesItsFolder: a page deleted while the preview runs
// leaves no empty folder in the output, as a whole build would not.
func TestDeletedPageTakesItsFolder(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	page := "+++\ntitle = \"A\"\ndescription = \"d\"\ncounter = false\n+++\n\nText.\n"
	if err := os.MkdirAll(filepath.Join(root, "content", "zz"), 0o755); err != nil {
		t.Fatal(err)
	}
	next(t, events) // the new folder
	save(t, filepath.Join(root, "content", "zz", "a.md"), page)
	for {
		if e := next(t, events); e == "reload: \n" {
			if code, _, _ := get(t, srv.URL+"/zz/a/"); code == 200 {
				break
			}
		}
	}
	if err := os.Remove(filepath.Join(root, "content", "zz", "a.md")); err != nil {
		t.Fatal(err)
	}
	for {
		if e := next(t, events); e == "reload: \n" {
			if code, _, _ := get(t, srv.URL+"/zz/a/"); code == 404 {
				break
			}
		}
	}
	if _, err := os.Stat(filepath.Join(root, "public", "zz")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("public/zz is still there (%v)", err)
	}
}

// TestAHiddenFolderMadeInStaticIsWatched: the build publishes static/'s
// hidden folders (static/.well-known/security.txt is served at
// /.well-known/security.txt), so a folder made there while the preview runs
// must be watched like any other: the files saved in it are built.
func TestAHiddenFolderMadeInStaticIsWatched(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	dir := filepath.Join(root, "static", ".well-known")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // past the watcher's wait for quiet
	save(t, filepath.Join(dir, "security.txt"), "Contact: mailto:security@example.com\n")
	out := filepath.Join(root, "public", ".well-known", "security.txt")
	until(t, events, "static/.well-known/security.txt, saved in a folder made while the preview ran, is not in public/ (the watcher never watched the new folder)", func() bool {
		_, err := os.Stat(out)
		return err == nil
	})
}

// TestAnEditorsLockInTemplatesBreaksNothing: Emacs keeps a lock beside a
// file with unsaved changes, a link named .#FILE to "user@host.pid:boot"
// that points nowhere. templates/.#page.html ends in .html; the build
// skips it (site.Ignored), as the watcher skips its events, so a save
// while it is there shows, and its removal needs no build.
func TestAnEditorsLockInTemplatesBreaksNothing(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	lock := filepath.Join(root, "templates", ".#page.html")
	if err := os.Symlink("user@host.4242:1700000000", lock); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	save(t, filepath.Join(root, "content", "404.md"), page404+"Saved while the lock is there.\n")
	if e := next(t, events); e != "reload: \n" {
		t.Fatalf("event = %q, want reload: the lock broke the build", e)
	}
	if _, body, _ := get(t, srv.URL+"/404.html"); !strings.Contains(body, "Saved while the lock is there.") {
		t.Error("the save made while the lock is there is not served")
	}
}

// TestManyFoldersAtOnceAreWatched: a publisher adds sections by the dozen
// (an unzip, a git pull). fsnotify on Windows delivers events and answers
// Add on one goroutine: a watcher that called Add while more events waited
// stalled for good, no later save built (seen under .ci/wine/test).
func TestManyFoldersAtOnceAreWatched(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	for i := range 200 {
		if err := os.Mkdir(filepath.Join(root, "content", fmt.Sprintf("s%03d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(200 * time.Millisecond) // past the watcher's wait for quiet
	save(t, filepath.Join(root, "content", "s199", "x.md"), "+++\ntitle = \"A\"\ndescription = \"d\"\ncounter = false\n+++\n\nIn the last folder.\n")
	until(t, events, "/s199/x/ is not built", func() bool {
		code, body, _ := get(t, srv.URL+"/s199/x/")
		return code == 200 && strings.Contains(body, "In the last folder.")
	})
}

// TestAFolderRenamedWhileThePreviewRunsIsWatched: a writer renames a
// section (mv content/aa content/bb) while the preview runs; the rename is
// built, and a page saved in the renamed folder afterwards must be built
// too, as a cold build of the same sources would show it.
func TestAFolderRenamedWhileThePreviewRunsIsWatched(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	page := func(body string) string {
		return "+++\ntitle = \"A\"\ndescription = \"d\"\ncounter = false\n+++\n\n" + body + "\n"
	}
	waitFor := func(url, want string) {
		t.Helper()
		until(t, events, fmt.Sprintf("%s does not show %q (the preview shows something other than a cold build)", url, want), func() bool {
			code, body, _ := get(t, srv.URL+url)
			return code == 200 && strings.Contains(body, want)
		})
	}
	if err := os.MkdirAll(filepath.Join(root, "content", "aa"), 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // past the watcher's wait for quiet
	save(t, filepath.Join(root, "content", "aa", "x.md"), page("First text."))
	waitFor("/aa/x/", "First text.")
	if err := os.Rename(filepath.Join(root, "content", "aa"), filepath.Join(root, "content", "bb")); err != nil {
		t.Fatal(err)
	}
	waitFor("/bb/x/", "First text.")
	time.Sleep(200 * time.Millisecond)
	save(t, filepath.Join(root, "content", "bb", "x.md"), page("Second text."))
	waitFor("/bb/x/", "Second text.")
}

// TestAnEditedNetlifyTomlIsServed: the preview serves netlify.toml's
// headers as Netlify will, so a save of it (which starts a build) is
// served from then on, as a CSP that now refuses the stylesheet is.
func TestAnEditedNetlifyTomlIsServed(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	toml := filepath.Join(root, "netlify.toml")
	data, err := os.ReadFile(toml)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "style-src 'self'", "style-src 'none'", 1)
	if edited == string(data) {
		t.Fatal("netlify.toml sets no style-src 'self' for this test to change")
	}
	save(t, toml, edited)
	if e := next(t, events); e != "reload: \n" {
		t.Fatalf("event = %q, want reload", e)
	}
	if _, _, h := get(t, srv.URL+"/"); !strings.Contains(h.Get("Content-Security-Policy"), "style-src 'none'") {
		t.Errorf("after netlify.toml's edit the preview serves Content-Security-Policy %q, want the edited one", h.Get("Content-Security-Policy"))
	}
	// A netlify.toml that is not TOML fails the build, naming it, and the
	// headers last read are served.
	save(t, toml, "[[headers]\n")
	if e := next(t, events); !strings.HasPrefix(e, "failed: ") || !strings.Contains(e, "netlify.toml") {
		t.Fatalf("event = %q, want the failure naming netlify.toml", e)
	}
	if _, _, h := get(t, srv.URL+"/"); !strings.Contains(h.Get("Content-Security-Policy"), "style-src 'none'") {
		t.Errorf("after a broken netlify.toml the preview serves Content-Security-Policy %q, want the last good one", h.Get("Content-Security-Policy"))
	}
}

// TestAWriteCutShortIsNotCalledTheLastGoodSite: a rebuild whose pages
// cannot all be written (a full disk; here a file where pay/'s folder goes)
// leaves public/ with new pages beside old ones, and the terminal and the
// page must say so rather than that the last good site is served.
func TestAWriteCutShortIsNotCalledTheLastGoodSite(t *testing.T) {
	root, srv, log := start(t)
	events := stream(t, srv)
	pay := filepath.Join(root, "public", "pay")
	if err := os.RemoveAll(pay); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pay, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(root, "templates", "base.html")
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	save(t, base, strings.Replace(string(data), "<main id=\"main\">", "<main id=\"main\"><p>New words.", 1))
	e := next(t, events)
	if !strings.HasPrefix(e, "failed: ") || !strings.Contains(e, "part of this build") {
		t.Errorf("event = %q, want the failure, saying public/ holds part of this build", e)
	}
	if strings.Contains(log.String(), "last good site") || !strings.Contains(log.String(), "part of this build") {
		t.Errorf("terminal:\n%s", log.String())
	}
}

// TestAFirstBuildThatFailsServesNoSite: with no good build yet, the terminal
// does not speak of a last good site, and the pages answer that none is built.
func TestAFirstBuildThatFailsServesNoSite(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "site", "testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "content", "index.md")); err != nil {
		t.Fatal(err)
	}
	srv, log := startIn(t, root)
	if code, _, _ := get(t, srv.URL+"/"); code != http.StatusServiceUnavailable {
		t.Errorf("GET / = %d before any good build, want 503", code)
	}
	if l := log.String(); !strings.Contains(l, "content/index.md: missing") || strings.Contains(l, "last good site") {
		t.Errorf("terminal:\n%s", l)
	}
}

// TestASQLiteStoreIsNotAJournal: -db naming a SQLite file, in any case (a
// writer on Windows or a Mac may type events.DB), is refused, not appended to.
func TestASQLiteStoreIsNotAJournal(t *testing.T) {
	for _, name := range []string{"events.db", "events.DB", "events.Sqlite"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			db := filepath.Join(root, name)
			_, err := New(Options{Root: root, Out: filepath.Join(root, "public"), Log: &syncBuffer{}, Events: db})
			if err == nil || !strings.Contains(err.Error(), "the preview keeps events in a journal") {
				t.Errorf("err = %v", err)
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("%s was made", name)
			}
		})
	}
}

// TestAStopDuringTheFirstWatchesEndsThePreview: Ctrl-C while the preview
// is still adding its first watches (a site of many folders). On Windows,
// fsnotify answers Add on the goroutine that hands over events, and the
// watcher closed mid-Add stranded it: the preview never exited.
func TestAStopDuringTheFirstWatchesEndsThePreview(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "site", "testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if err := os.Mkdir(filepath.Join(root, "content", fmt.Sprintf("s%03d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		done := make(chan error, 1)
		go func() {
			done <- Serve(ctx, Options{Root: root, Out: filepath.Join(t.TempDir(), "public"), Addr: "127.0.0.1:0", Log: io.Discard})
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("stop %d: the preview had not ended 30 s after it was stopped", i+1)
		}
	}
}

// TestASiteFolderRenamedUnderThePreviewIsSaidSo: the site folder renamed
// while the preview runs (the output folder with it) was told as a
// template that defines no "base", over a last good site said to be
// served that answered 503. Windows refuses the rename, while the
// watches are open.
func TestASiteFolderRenamedUnderThePreviewIsSaidSo(t *testing.T) {
	root, srv, log := start(t)
	events := stream(t, srv)
	if err := os.Rename(root, root+"-moved"); err != nil {
		t.Skipf("the site folder could not be renamed: %v", err)
	}
	save(t, filepath.Join(root+"-moved", "content", "index.md"), "+++\ntitle = \"A\"\ndescription = \"d\"\n+++\n\nMoved.\n")
	want := root + ": no site folder now: was it renamed or removed? Stop the preview (Ctrl-C) and start it where the site is now"
	if e := next(t, events); !strings.HasPrefix(e, "failed: "+want) {
		t.Fatalf("event = %q, want %q", e, want)
	}
	if strings.Contains(log.String(), "still serving") {
		t.Errorf("terminal:\n%s", log.String())
	}
}
