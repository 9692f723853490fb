package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"errref/internal/event"
	"errref/internal/report"
	"errref/internal/store"
)

// command builds the command once, and a store of 60 days of events
// ending now: views, human candidates and engaged readers of two pages
// from three referrers (one withheld), a click and a buy-link click.
func command(t *testing.T) (bin, db string, items []store.Item) {
	t.Helper()
	dir := t.TempDir()
	bin = filepath.Join(dir, "report")
	if runtime.GOOS == "windows" {
		bin += ".exe" // else Windows will not run it
	}
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	db = filepath.Join(dir, "events.db")
	st, err := store.Open(context.Background(), db, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now().UTC()
	ms, scrolled := int64(95_000), true
	for d := range 60 {
		at := now.AddDate(0, 0, -d)
		for i, ref := range []string{"github.com", "www.google.com", ""} {
			for _, name := range event.Reading[:1+(d+i)%3] {
				e := event.Event{Name: name, Path: []string{"/", "/pay/"}[(d+i)%2], Ref: ref, VisibleMS: &ms, Scrolled: &scrolled}
				items = append(items, store.Item{Event: e, At: at})
			}
		}
	}
	items = append(items, store.Item{Event: event.Event{Name: "copy-sketch"}, At: now},
		store.Item{Event: event.Event{Name: event.Checkout, Checkout: "gumroad"}, At: now})
	if _, err := st.Keep(context.Background(), items); err != nil {
		t.Fatal(err)
	}
	return bin, db, items
}

func run(t *testing.T, bin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

func TestCommand(t *testing.T) {
	bin, db, items := command(t)

	// The default stays the table; -html - writes the page to stdout.
	out, _, err := run(t, bin, "-db", db)
	if err != nil || !strings.HasPrefix(out, "Readers, ") {
		t.Errorf("report: %v\n%.200s", err, out)
	}
	out, errOut, err := run(t, bin, "-db", db, "-html", "-")
	if err != nil || !strings.HasPrefix(out, "<!doctype html>") || !strings.HasSuffix(out, "</html>\n") || !strings.HasPrefix(errOut, "report: "+report.Quote(db)+", ") {
		t.Errorf("report -html -: %v, stderr %q\n%.200s", err, errOut, out)
	}
	file := filepath.Join(t.TempDir(), "r.html")
	out, _, err = run(t, bin, "-db", db, "-html", file)
	if b, _ := os.ReadFile(file); err != nil || out != "" || !bytes.HasPrefix(b, []byte("<!doctype html>")) {
		t.Errorf("report -html FILE: %v, stdout %q, file %.100q", err, out, b)
	}

	// The filters narrow the report, and the JSON says so.
	today := time.Now().UTC().Format(time.DateOnly)
	from := time.Now().UTC().AddDate(0, 0, -29).Format(time.DateOnly)
	want := 0
	for _, it := range items {
		if e, day := it.Event, it.At.Format(time.DateOnly); e.Name == "view" && e.Path == "/" && e.Ref == "github.com" && day >= from && day <= today {
			want++
		}
	}
	out, _, err = run(t, bin, "-db", db, "-json", "-path", "/", "-ref", "github.com")
	var r report.Report
	if err != nil || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("report -json -path / -ref github.com: %v\n%.200s", err, out)
	}
	if r.Filter != (report.Filter{Path: "/", Ref: "github.com"}) || r.Total.View != want || want == 0 || r.SiteWide != nil || r.PartialDay != today {
		t.Errorf("filter %+v, %d views (want %d), site-wide %v, partial day %q", r.Filter, r.Total.View, want, r.SiteWide, r.PartialDay)
	}

	// What it cannot do right, it refuses.
	for _, args := range [][]string{{"-html", "-", "-json"}, {"-json", "r.html"}, {"-from", "2026-03-31", "-to", "2026-03-01"}} {
		if _, errOut, err := run(t, bin, append([]string{"-db", db}, args...)...); err == nil || !strings.HasPrefix(errOut, "report: ") {
			t.Errorf("report %v: %v, stderr %q", args, err, errOut)
		}
	}
}
