package main

import (
	"bufio"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"errref/internal/event"
)

// bigLog writes the log of issue 37's large import: 390,060 events over
// 30 UTC days ending at end, from 2,000 referrer hosts and with 10,000
// outreach codes, as the function writes its not-stored lines.
func bigLog(t testing.TB, path string, end time.Time) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	r := rand.New(rand.NewPCG(37, 1))
	start := end.Add(-30 * 24 * time.Hour)
	const n = 390_060
	for i := range n {
		var e event.Event
		switch k := r.IntN(20); {
		case k < 10:
			e.Name = "view"
		case k < 15:
			e.Name = "human-candidate"
		case k < 18:
			e.Name = "engaged"
		case k < 19:
			e.Name = "copy-sketch"
		default:
			e.Name, e.Checkout = "checkout", []string{"gumroad", "site"}[r.IntN(2)]
		}
		if e.Checkout == "" && e.Name != "copy-sketch" {
			e.Path = []string{"/", "/pay/", "/a/"}[r.IntN(3)]
			e.Scrolled = ptr(r.IntN(2) == 0)
			e.VisibleMS = ptr(int64(1000 + r.IntN(600_000)))
			if r.IntN(2) == 0 {
				e.Ref = fmt.Sprintf("host%d.example", r.IntN(2000))
			}
			if r.IntN(3) == 0 {
				e.Outreach = ptr(fmt.Sprintf("oc%05d", r.IntN(10_000)))
			}
		}
		at := start.Add(time.Duration(i) * (30 * 24 * time.Hour / n))
		w.Write(e.NotStoredLine(at))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func ptr[T any](v T) *T { return &v }

// BenchmarkReportAfterALargeImport: issue 37's large import taken by
// -import into a new SQLite store, then the report run as a process, the
// first time and the times after: each should take as long.
//
//	go test ./cmd/report -run '^$' -bench ReportAfterALargeImport -benchtime 1x
func BenchmarkReportAfterALargeImport(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "report")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	log := filepath.Join(dir, "log.jsonl")
	bigLog(b, log, time.Now().UTC())
	var first, later time.Duration
	runs := 0
	var site string
	for b.Loop() {
		site = b.TempDir()
		cmd := exec.Command(bin, "-import", log)
		cmd.Dir = site
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("-import: %v\n%s", err, out)
		}
		for i := range 3 {
			cmd := exec.Command(bin)
			cmd.Dir = site
			t0 := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("report: %v\n%s", err, out)
			}
			if i == 0 {
				first += time.Since(t0)
			} else {
				later += time.Since(t0)
			}
		}
		runs++
	}
	b.ReportMetric(first.Seconds()/float64(runs), "s/first-report")
	b.ReportMetric(later.Seconds()/float64(2*runs), "s/later-report")
	b.ReportMetric(umamiWay(b, filepath.Join(site, "events.db")), "s/umami-way")
}

// umamiWay is how long the same counts take read as Umami reads them:
// no roll-up, one GROUP BY over the raw events a table of the report
// (src/queries/sql/pageviews in umami-software/umami at c0ea3ae), over
// the period and the one before.
func umamiWay(b *testing.B, path string) float64 {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	from := time.Now().UTC().AddDate(0, 0, -59).Format(time.DateOnly)
	t0 := time.Now()
	for _, by := range []string{
		"day, name, path, scrolled", "name, ref", "name, utm_source, utm_medium, utm_campaign, utm_term, utm_content",
		"name, outreach", "name, visible_ms / 1000", "day, name, checkout",
	} {
		rows, err := db.Query(`SELECT `+by+`, COUNT(*) FROM events WHERE day >= ? GROUP BY `+by, from)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
		}
		rows.Close()
	}
	return time.Since(t0).Seconds()
}
