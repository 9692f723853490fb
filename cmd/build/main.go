// Command build renders the site: content/*.md through templates/ into
// public/, with static/ copied and measure/ bundled into public/measure.js.
//
//	go run ./cmd/build                  build public/
//	go run ./cmd/build -publish         the same, refusing while a setting is unset (Netlify runs this)
//	go run ./cmd/build -serve           preview on 127.0.0.1:8080, rebuilt on save
//	go run ./cmd/build -quiet           print only warnings and errors
//	go run ./cmd/build -brotli          add brotli sizes to the summary
//	go run ./cmd/build -nocache         render everything, as on a fresh machine
//	go run ./cmd/build -check-sources modelcontextprotocol/python-sdk=../python-sdk
//	go run ./cmd/build -check-sources REPO@OLD=DIR -repin REPO@NEW=DIR [-write]
//	go run ./cmd/build -drift REPO=GITDIR [-drift-pre] [-json]
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"errref/internal/cite"
	"errref/internal/drift"
	"errref/internal/output"
	"errref/internal/preview"
	"errref/internal/repin"
	"errref/internal/site"
	"errref/internal/store"
)

type sources []string

func (s *sources) String() string     { return strings.Join(*s, ",") }
func (s *sources) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	root := flag.String("root", ".", "the site folder, holding content/, templates/, static/ and measure/")
	out := flag.String("out", "public", "the output folder, replaced whole by each good build")
	publish := flag.Bool("publish", false, "refuse to build while a setting a published site needs is unset")
	serve := flag.Bool("serve", false, "serve a live preview that rebuilds on save")
	quiet := flag.Bool("quiet", false, "print only warnings and errors, and skip the size summary")
	withBrotli := flag.Bool("brotli", false, "add brotli -q 11 sizes to the summary (slower: 50 ms a page)")
	nocache := flag.Bool("nocache", false, "render every page and measure every size, using no build cache")
	timeout := flag.Duration("timeout", site.DefaultTimeout, "the longest the pages may take to render")
	addr := flag.String("addr", "127.0.0.1:8080", "the preview's address")
	db := flag.String("db", "", "where the preview keeps events: a journal of JSON lines or a PostgreSQL URL (default: DATABASE_URL, NETLIFY_DB_URL, else events.jsonl in -root, which go run ./cmd/report takes into events.db; -db=none keeps none)")
	var checks sources
	flag.Var(&checks, "check-sources", "check the citations of REPO[@VERSION]=DIR against the source in DIR (repeatable)")
	repinTo := flag.String("repin", "", "move the citations of REPO at the versions -check-sources gives to REPO@VERSION=DIR, printing the diff")
	write := flag.Bool("write", false, "with -repin, rewrite content/*.md instead of printing the diff")
	var drifts sources
	flag.Var(&drifts, "drift", "check the citations of REPO=GITDIR against the newest release of each major version they cite, read from the git clone GITDIR (repeatable, one per cited repository); exit 1 if a quote no longer holds, 2 if it cannot tell")
	driftPre := flag.Bool("drift-pre", false, "with -drift, count prereleases (v2.1.0rc1) as releases")
	asJSON := flag.Bool("json", false, "with -drift, print the report as JSON")
	flag.Parse()
	if *root == "" {
		// The current folder, as every path function takes an empty
		// path; os.DirFS refuses one.
		*root = "."
	}
	if len(drifts) > 0 {
		// Exit 1 says a quote drifted: anything that stops the check
		// must not say so too.
		failStatus, failHead = drift.Failed, "-drift could not answer:"
		if len(checks) > 0 || *repinTo != "" || *serve {
			fail(fmt.Errorf("-drift goes without -check-sources, -repin and -serve"))
		}
	}
	if (*driftPre || *asJSON) && len(drifts) == 0 {
		fail(fmt.Errorf("-drift-pre and -json go with -drift REPO=GITDIR"))
	}
	if *write && *repinTo == "" {
		fail(fmt.Errorf("-write goes with -repin REPO@VERSION=DIR"))
	}
	if err := output.CheckDir(*out, *root, append(site.SourceDirs(), ".git")); err != nil {
		fail(err)
	}
	if len(checks) == 0 && *repinTo == "" && len(drifts) == 0 {
		// Before the build, not after it: a folder that will be refused
		// is reported at once.
		if err := output.Replaceable(*out); err != nil {
			fail(err)
		}
	}
	if *serve {
		// Most of what stops the preview is not a build: a port that is
		// taken, a store that cannot be opened.
		failHead = "the preview failed:"
		// SIGTERM too, which process managers, containers and go run's
		// wrappers send (on Windows, closing the console window).
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		// Where the report reads: DATABASE_URL, NETLIFY_DB_URL, or the
		// journal that go run ./cmd/report takes into events.db (the
		// build links no SQLite); the preview says which at start.
		events := *db
		if events == "" {
			dsn, _, err := store.Locate(os.Getenv, "")
			if err != nil {
				fail(err)
			}
			events = filepath.Join(*root, "events.jsonl")
			if store.IsPostgres(dsn) {
				events = dsn
			}
		}
		if events == "none" {
			events = ""
		}
		if err := preview.Serve(ctx, preview.Options{Root: *root, Out: *out, Addr: *addr, Log: os.Stdout, Cache: !*nocache, Timeout: *timeout, Events: events}); err != nil {
			fail(err)
		}
		return
	}

	if os.Getenv("GOGC") == "" {
		collectLess()
	}
	start := time.Now()
	s, err := site.Build(site.Options{FS: os.DirFS(*root), Publish: *publish, Cache: !*nocache, Timeout: *timeout})
	if err != nil {
		fail(err)
	}
	for _, w := range s.Warnings {
		fmt.Fprintln(os.Stderr, "warning:", w)
	}
	if len(drifts) > 0 {
		files := map[string][]byte{}
		for _, p := range s.Pages {
			files[p.File] = p.Raw()
		}
		code, err := drift.Run(drift.Options{Clones: drifts, Pre: *driftPre, JSON: *asJSON, Citations: s.Citations, Files: files, Out: os.Stdout})
		if err != nil {
			fail(err)
		}
		os.Exit(code)
	}
	if *repinTo != "" {
		files := map[string][]byte{}
		for _, p := range s.Pages {
			files[p.File] = p.Raw()
		}
		ok, err := repin.Run(repin.Options{Root: *root, To: *repinTo, From: checks, Citations: s.Citations, Files: files, Write: *write, Out: os.Stdout})
		if err != nil {
			fail(err)
		}
		if !ok {
			os.Exit(1)
		}
		return
	}
	if len(checks) > 0 {
		ok, err := cite.CheckAll(os.Stdout, s.Citations, checks)
		if err != nil {
			fail(err)
		}
		if !ok {
			os.Exit(1)
		}
		return
	}
	// The summary is measured while the files are written.
	sizes := make(chan site.Sizes, 1)
	if !*quiet {
		go func() { sizes <- s.Sizes(*withBrotli) }()
	}
	if err := output.Write(*out, s.Files); err != nil {
		fail(err)
	}
	if !*quiet {
		r := <-sizes
		fmt.Printf("built %d pages, %d files, %d B, into %s/ in %v\n", r.Pages, r.Files, r.Raw, *out, time.Since(start).Round(time.Millisecond))
		fmt.Printf("  critical path: %7d B raw, %6d B gzip%s (HTML+CSS+JS of /; budget %d B gzip: %s)\n",
			r.Critical.Raw, r.Critical.Gzip, brotli(r, r.Critical), site.CriticalBudget, r.Verdict())
		fmt.Printf("  measure.js:    %7d B raw, %6d B gzip%s\n", r.Measure.Raw, r.Measure.Gzip, brotli(r, r.Measure))
	}
	if len(s.Warnings) > 0 {
		fmt.Fprintf(os.Stderr, "%d warnings above: the site built, but read them before you publish\n", len(s.Warnings))
	}
}

// collectLess sets the collector for a build, which is short and holds
// most of what it allocates to the end, so that collecting as often as
// Go's default (GOGC=100) mostly scans what is still needed. None runs
// until the heap reaches 48 MiB, which a small site never does, and from
// there on each runs when the heap has grown to three times what the
// last one kept (GOGC=200). The figures that chose them: a one-page build
// in 45 ms instead of 52, a 1,000-page cold build in 2.1 s instead of
// 2.7. The preview, which runs for hours, keeps the
// default, and so does a GOGC the user sets.
func collectLess() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(48 << 20)
	// The first collection, the limit's, frees this and so runs the
	// cleanup, which hands over to GOGC=200.
	runtime.AddCleanup(new([64]byte), func(struct{}) {
		debug.SetGCPercent(200)
		debug.SetMemoryLimit(math.MaxInt64)
	}, struct{}{})
}

// brotli is the summary's brotli column, when -brotli measured it.
func brotli(r site.Sizes, z site.Size) string {
	if !r.Brotli {
		return ""
	}
	return fmt.Sprintf(", %6d B brotli", z.Brotli)
}

// failStatus is the exit code of a failure, and failHead its first line.
var (
	failStatus = 1
	failHead   = "build failed:"
)

func fail(err error) {
	fmt.Fprintln(os.Stderr, failHead)
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintln(os.Stderr, "  "+line)
	}
	fmt.Fprintln(os.Stderr, "The output folder was left as it was.")
	os.Exit(failStatus)
}
