// Command build renders the site: content/*.md through templates/ into
// public/, with static/ copied and measure/ bundled into public/measure.js.
//
//	go run ./cmd/build                  build public/
//	go run ./cmd/build -publish         the same, refusing while a setting is unset or a page over its budget (Netlify runs this)
//	go run ./cmd/build -serve           preview on 127.0.0.1:8080, rebuilt on save
//	go run ./cmd/build -quiet           print only warnings and errors
//	go run ./cmd/build -check-sources modelcontextprotocol/python-sdk=../python-sdk
//	go run ./cmd/build -check-sources REPO@OLD=DIR -repin REPO@NEW=DIR [-write]
//	go run ./cmd/build -drift REPO=GITDIR [-drift-pre] [-json]
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"errref/internal/output"
	"errref/internal/preview"
	"errref/internal/quote"
	"errref/internal/site"
	"errref/internal/store"
)

// flags are the command line, read once.
type flags struct {
	root, out, addr, db   string
	publish, quiet, serve bool
	timeout               time.Duration
	checks, drifts        []string
	repin                 string
	write, pre, json      bool
}

func main() {
	var f flags
	flag.StringVar(&f.root, "root", ".", "the site folder, holding content/, templates/, static/ and measure/")
	flag.StringVar(&f.out, "out", "public", "the output folder, replaced whole by each good build (by default public in -root)")
	flag.BoolVar(&f.publish, "publish", false, "refuse to build while a setting a published site needs is unset, or a page is over the size budget")
	flag.BoolVar(&f.serve, "serve", false, "serve a live preview that rebuilds on save")
	flag.BoolVar(&f.quiet, "quiet", false, "print only warnings and errors, and skip the size summary")
	flag.DurationVar(&f.timeout, "timeout", site.DefaultTimeout, "the longest the build waits for the next page to render")
	flag.StringVar(&f.addr, "addr", "127.0.0.1:8080", "the preview's address")
	flag.StringVar(&f.db, "db", "", "where the preview keeps events: a journal of JSON lines or a PostgreSQL URL (default: DATABASE_URL, NETLIFY_DB_URL, else events.jsonl in -root, which go run ./cmd/report takes into events.db; -db=none keeps none)")
	flag.Func("check-sources", "check the citations of REPO[@VERSION]=DIR against the source in DIR (repeatable)", appendTo(&f.checks))
	flag.StringVar(&f.repin, "repin", "", "move the citations of REPO at the versions -check-sources gives to REPO@VERSION=DIR, printing the diff")
	flag.BoolVar(&f.write, "write", false, "with -repin, rewrite content/*.md instead of printing the diff")
	flag.Func("drift", "check the citations of REPO=GITDIR against the newest release of each major version they cite, read from the git clone GITDIR (repeatable, one per cited repository); exit 1 if a quote no longer holds, 2 if it cannot tell", appendTo(&f.drifts))
	flag.BoolVar(&f.pre, "drift-pre", false, "with -drift, count prereleases (v2.1.0rc1) as releases")
	flag.BoolVar(&f.json, "json", false, "with -drift, print the report as JSON")
	flag.Parse()
	f.root = cmp.Or(f.root, ".") // as path functions take it; os.DirFS refuses ""
	out := false
	flag.Visit(func(fl *flag.Flag) { out = out || fl.Name == "out" })
	if !out { // the site's own, beside its journal, wherever the command runs
		f.out = filepath.Join(f.root, f.out)
	}
	if len(f.drifts) > 0 {
		// Exit 1 says a quote drifted: a failure must not say so too.
		failStatus, failHead = quote.Failed, "-drift could not answer:"
	}
	switch fi, err := os.Stat(filepath.Join(f.root, site.ContentDir)); {
	case err != nil || !fi.IsDir():
		abs, _ := filepath.Abs(f.root)
		fail(fmt.Errorf("%s holds no %s/ folder: run the command in the site's root, "+
			"the folder that holds %s/ and site.toml, or name it with -root", abs, site.ContentDir, site.ContentDir))
	case len(f.drifts) > 0 && (len(f.checks) > 0 || f.repin != "" || f.serve):
		fail(fmt.Errorf("-drift goes without -check-sources, -repin and -serve"))
	case (f.pre || f.json) && len(f.drifts) == 0:
		fail(fmt.Errorf("-drift-pre and -json go with -drift REPO=GITDIR"))
	case f.write && f.repin == "":
		fail(fmt.Errorf("-write goes with -repin REPO@VERSION=DIR"))
	case f.serve && (len(f.checks) > 0 || f.repin != "" || f.publish):
		fail(fmt.Errorf("-serve goes without -check-sources, -repin and -publish"))
	case len(f.drifts) > 0:
		code, err := quote.Drift(quote.DriftOptions{
			Build: f.site, Clones: f.drifts, Pre: f.pre, JSON: f.json, Out: os.Stdout,
		})
		if err != nil {
			fail(err)
		}
		os.Exit(code)
	case f.repin != "":
		failHead = "-repin failed:"
		exit(quote.Repin(quote.RepinOptions{
			Build: f.site, Root: f.root, To: f.repin, From: f.checks, Write: f.write, Out: os.Stdout,
		}))
	case len(f.checks) > 0:
		failHead = "-check-sources failed:"
		exit(quote.Check(os.Stdout, f.checks, f.site))
	}
	// From here on a failure leaves the output folder as it was.
	failHead, footer = "build failed:", "The output folder was left as it was."
	if f.out == "" { // an unset variable in a script: "-out $OUT"
		fail(fmt.Errorf(`-out "": name the output folder, or drop -out to build into public/ in the site folder`))
	}
	if err := output.CheckDir(f.out, f.root, append(site.SourceDirs(), ".git")); err != nil {
		fail(err)
	}
	if f.serve {
		serve(f)
		return
	}
	build(f)
}

// appendTo is a repeatable flag's setter.
func appendTo(list *[]string) func(string) error {
	return func(v string) error { *list = append(*list, v); return nil }
}

// exit ends a quote tool's run: 0 when every quote held, else 1.
func exit(ok bool, err error) {
	if err != nil {
		fail(err)
	}
	if !ok {
		os.Exit(1)
	}
	os.Exit(0)
}

// site builds the site in memory, printing its warnings.
func (f flags) site() (*site.Site, error) {
	s, err := site.Build(site.Options{FS: os.DirFS(f.root), Publish: f.publish, Timeout: f.timeout})
	if err == nil {
		for _, w := range s.Warnings {
			fmt.Fprintln(os.Stderr, "warning:", w)
		}
	}
	return s, err
}

// build builds the site into the output folder and prints the summary.
func build(f flags) {
	// Before the build: a folder that will be refused is reported at once.
	if err := output.Replaceable(f.out); err != nil {
		fail(err)
	}
	if os.Getenv("GOGC") == "" {
		collectLess()
	}
	start := time.Now()
	s, err := f.site()
	// A published page must fit its budget: -publish measures every page
	// and refuses before anything is written.
	if err == nil && f.publish {
		err = s.CheckBudget()
	}
	if err != nil {
		fail(err)
	}
	// The summary is measured while the files are written.
	var r site.Sizes
	var measureErr error
	measured := make(chan struct{})
	go func() { r, measureErr = s.Sizes(); close(measured) }()
	if err := output.Write(f.out, s.Files); err != nil {
		fail(err)
	}
	<-measured
	warn := func(msg string) { s.Warnings = append(s.Warnings, msg); fmt.Fprintln(os.Stderr, "warning:", msg) }
	c, as, verdict := r.Critical, "", "fits"
	if r.Standin {
		as = ", with the base URL " + site.StandinBaseURL
	}
	if !c.Fits() {
		verdict = "OVER"
		// Over only with the stand-in base URL: the build warned of it as built otherwise.
		if !slices.ContainsFunc(s.Warnings, func(w string) bool { return strings.HasPrefix(w, c.File+": ") }) {
			warn(c.Over() + ": -publish refuses to build")
		}
	}
	if measureErr != nil {
		warn("the size summary failed: " + measureErr.Error())
	} else if !f.quiet {
		fmt.Printf("built %d pages, %d files, %d B, into %s/ in %v\n", len(s.Pages), len(s.Files), r.Raw, f.out, time.Since(start).Round(time.Millisecond))
		fmt.Printf("  critical path: %7d B raw, %6d B gzip (HTML+CSS+JS of %s, the heaviest page%s; budget %d B gzip: %s)\n",
			c.Raw, c.Gzip, c.URL, as, site.CriticalBudget, verdict)
		fmt.Printf("  measure.js:    %7d B raw, %6d B gzip\n", r.Measure.Raw, r.Measure.Gzip)
	}
	if len(s.Warnings) > 0 {
		fmt.Fprintf(os.Stderr, "%d warnings above: the site built, but read them before you publish\n", len(s.Warnings))
	}
}

// serve runs the preview until it is interrupted.
func serve(f flags) {
	failHead = "the preview failed:" // a taken port, a store that cannot be opened
	// SIGTERM too, which process managers and go run's wrappers send.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Where the report reads: DATABASE_URL, NETLIFY_DB_URL, or the journal
	// go run ./cmd/report takes into events.db (the build links no SQLite).
	events := f.db
	if events == "" {
		dsn, _, err := store.Locate(os.Getenv, "")
		if err != nil {
			fail(err)
		}
		events = filepath.Join(f.root, "events.jsonl")
		if store.IsPostgres(dsn) {
			events = dsn
		}
	}
	if events == "none" {
		events = ""
	}
	if err := preview.Serve(ctx, preview.Options{Root: f.root, Out: f.out, Addr: f.addr, Log: os.Stdout, Timeout: f.timeout, Events: events}); err != nil {
		fail(err)
	}
}

// collectLess runs no collection below a 48 MiB heap, then GOGC=200: a
// build holds most of what it allocates to the end. The preview keeps its own.
func collectLess() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(48 << 20)
	// The first collection frees this and runs the cleanup: GOGC=200.
	runtime.AddCleanup(new([64]byte), func(struct{}) {
		debug.SetGCPercent(200)
		debug.SetMemoryLimit(math.MaxInt64)
	}, struct{}{})
}

// A failure exits with failStatus, printing failHead first, any footer last.
var (
	failStatus = 1
	failHead   = "cannot run:"
	footer     = ""
)

func fail(err error) {
	fmt.Fprintln(os.Stderr, failHead)
	fmt.Fprintln(os.Stderr, "  "+strings.ReplaceAll(err.Error(), "\n", "\n  "))
	if footer != "" {
		fmt.Fprintln(os.Stderr, footer)
	}
	os.Exit(failStatus)
}
