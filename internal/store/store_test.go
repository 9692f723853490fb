package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"errref/internal/tally"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"errref/internal/event"
	"errref/internal/needs"
)

// backend opens a fresh, empty store of one kind for a test.
type backend struct {
	name string
	dsn  func(t testing.TB) string // a new, empty store's address
}

// backends are SQLite, always, and PostgreSQL when TEST_DATABASE_URL names
// a server (.ci/run starts one). Without it the PostgreSQL half fails,
// saying how to set it, unless SKIP_POSTGRES=1 (package needs).
func backends(t testing.TB) []backend {
	b := []backend{{"sqlite", func(t testing.TB) string { return filepath.Join(t.TempDir(), "events.db") }}}
	return append(b, backend{"postgres", pgSchema})
}

// pgSchema makes a schema of its own for one test on the server in
// TEST_DATABASE_URL, dropped when the test ends, and returns a URL whose
// search_path is that schema. With TEST_DATABASE_PER_TEST=1 it makes a
// database instead: a pooler such as PgBouncer 1.18 refuses search_path
// as a startup parameter (.ci/run sets it for the run through PgBouncer).
func pgSchema(t testing.TB) string {
	base := needs.Postgres(t)
	admin := pgAdmin(t, base)
	name := fmt.Sprintf("t_%d_%d", time.Now().UnixNano(), rand.IntN(1e6))
	if os.Getenv("TEST_DATABASE_PER_TEST") == "1" {
		if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
			t.Fatalf("PostgreSQL at TEST_DATABASE_URL (the role needs CREATEDB): %v", err)
		}
		t.Cleanup(func() {
			defer admin.Close()
			// Not DROP … WITH (FORCE): PostgreSQL 15 refuses it, unless the role
			// is in pg_signal_backend, while an autovacuum worker is in the
			// database. Plain DROP stops autovacuum itself and waits for
			// backends to end, so end only the pooler's idle connections first.
			end := "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND usename = current_user"
			if _, err := admin.Exec(end, name); err != nil {
				t.Errorf("ending the test database's connections: %v", err)
			}
			if _, err := admin.Exec("DROP DATABASE " + name); err != nil {
				t.Errorf("dropping the test's database: %v", err)
			}
		})
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		u.Path = "/" + name
		return u.String()
	}
	if _, err := admin.Exec("CREATE SCHEMA " + name); err != nil {
		t.Fatalf("PostgreSQL at TEST_DATABASE_URL: %v", err)
	}
	t.Cleanup(func() {
		admin.Exec("DROP SCHEMA " + name + " CASCADE")
		admin.Close()
	})
	sep := "?"
	if slices.Contains([]rune(base), '?') {
		sep = "&"
	}
	return base + sep + "search_path=" + name
}

// pgAdmin connects to dsn for a test's own statements, as the store does:
// without prepared statements, so that it works through a pooler.
func pgAdmin(t testing.TB, dsn string) *sql.DB {
	t.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	return stdlib.OpenDB(*cfg)
}

func open(t testing.TB, dsn string) *Store {
	t.Helper()
	s, err := Open(context.Background(), dsn, Options{MaxConns: 8, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func each(t *testing.T, test func(t *testing.T, dsn string)) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) { test(t, b.dsn(t)) })
	}
}

func TestMigrationsTwiceAndAtOnce(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		// Two processes opening a new store at once: each its own pool.
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() {
				s, err := Open(context.Background(), dsn, Options{Create: true})
				if err == nil {
					s.Close()
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		s := open(t, dsn) // and once more
		var n int
		if err := s.db.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(migrations) {
			t.Errorf("schema_migrations holds %d rows (%v), want %d", n, err, len(migrations))
		}
	})
}

// TestSchemaHoldsOnlyTheContract: a row holds what the contract sends and
// the server's time; the store keeps no other table of events.
func TestSchemaHoldsOnlyTheContract(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		tables := map[string][]string{}
		var rows *sql.Rows
		var err error
		if s.postgres {
			rows, err = s.db.Query(`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`)
		} else {
			rows, err = s.db.Query(`SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid`)
		}
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var table, col string
			rows.Scan(&table, &col)
			tables[table] = append(tables[table], col)
		}
		rows.Close()
		want := map[string][]string{
			"events": Columns,
			// The 77aa49a release's counts by day, which its report reads:
			// the contract's fields, a count, and how often the trigger
			// added to it (to drop that release's own second count).
			"daily": {"day", "name", "path", "ref", "utm_source", "utm_medium", "utm_campaign", "outreach", "checkout", "scrolled", "n", "kept"},
			// The counts the report reads, kept by a trigger.
			"rollup":            {"day", "name", "path", "ref", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "outreach", "checkout", "scrolled", "visible_s", "n"},
			"imported":          {"line"},                // the hash of an imported log line, to take it once
			"journal_taken":     {"path", "pos", "line"}, // how far the report took the preview's journal
			"schema_migrations": {"version", "applied_at"},
			// A sale: the hash of its ID, its UTC day, channel, product,
			// amount and whether it was kept; nothing of its buyer.
			"sales": {"key", "day", "channel", "product", "cents", "kept"},
		}
		if fmt.Sprint(tables) != fmt.Sprint(want) {
			t.Errorf("tables and columns:\n%v\nwant:\n%v", tables, want)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// Insert stores one event, received at at.
func (s *Store) Insert(ctx context.Context, e event.Event, at time.Time) error {
	_, err := s.Keep(ctx, []Item{{Event: e, At: at}})
	return err
}

// seed is a small data set with known counts, across a UTC day boundary.
var seed = []struct {
	at string
	e  event.Event
}{
	{"2026-03-01T23:59:59Z", event.Event{Name: "view", Path: "/", VisibleMS: ptr[int64](5), Scrolled: ptr(false)}},
	{"2026-03-02T00:00:00Z", event.Event{Name: "view", Path: "/", VisibleMS: ptr[int64](5), Scrolled: ptr(true), Ref: "news.ycombinator.com"}},
	{"2026-03-02T01:30:00+02:00", event.Event{Name: "view", Path: "/", VisibleMS: ptr[int64](1), Scrolled: ptr(false)}}, // 23:30 UTC on 1 March
	{"2026-03-02T10:00:00Z", event.Event{Name: "human-candidate", Path: "/", VisibleMS: ptr[int64](10001), Scrolled: ptr(true), Ref: "news.ycombinator.com"}},
	{"2026-03-02T10:01:00Z", event.Event{Name: "engaged", Path: "/", VisibleMS: ptr[int64](90001), Scrolled: ptr(true),
		Campaign: map[string]string{"utm_source": "hn", "utm_medium": "post", "utm_campaign": "launch", "utm_term": "t"}, Outreach: ptr("oc1")}},
	{"2026-03-02T10:02:00Z", event.Event{Name: "copy-sketch"}},
	{"2026-03-02T10:03:00Z", event.Event{Name: "checkout", Checkout: "gumroad"}},
	{"2026-03-03T00:00:00Z", event.Event{Name: "checkout", Checkout: "site"}},
}

func seeded(t *testing.T, dsn string) *Store {
	s := open(t, dsn)
	for _, r := range seed {
		at, _ := time.Parse(time.RFC3339, r.at)
		if err := s.Insert(context.Background(), r.e, at); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func sum(cs []tally.Count, keep func(tally.Count) bool) int {
	n := 0
	for _, c := range cs {
		if keep(c) {
			n += c.N
		}
	}
	return n
}

func TestCountsAreExactAndDaysAreUTC(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := seeded(t, dsn)
		ctx := context.Background()
		for _, tc := range []struct {
			from, to string
			name     string
			want     int
		}{
			{"2026-03-01", "2026-03-01", "view", 2}, // 23:59:59Z and 01:30+02:00
			{"2026-03-02", "2026-03-02", "view", 1}, // 00:00:00Z
			{"2026-03-02", "2026-03-02", "checkout", 1},
			{"2026-03-02", "2026-03-03", "checkout", 2},
			{"2026-03-01", "2026-03-03", "engaged", 1},
			{"2026-03-04", "2026-03-31", "view", 0},
		} {
			cs, err := s.Counts(ctx, tc.from, tc.to)
			if err != nil {
				t.Fatal(err)
			}
			if got := sum(cs, func(c tally.Count) bool { return c.Name == tc.name }); got != tc.want {
				t.Errorf("%s..%s: %d %s, want %d", tc.from, tc.to, got, tc.name, tc.want)
			}
		}
		cs, _ := s.Counts(ctx, "2026-03-01", "2026-03-03")
		for _, c := range cs {
			if c.Name == "engaged" && (c.Source != "hn" || c.Medium != "post" || c.Campaign != "launch" || c.Term != "t" || c.Outreach != "oc1" || !c.Scrolled || c.Day != "2026-03-02" || c.VisibleS != 90) {
				t.Errorf("engaged = %+v", c)
			}
			if c.Name == "checkout" && c.Checkout == "" {
				t.Errorf("a checkout without its word: %+v", c)
			}
		}
		if got := sum(cs, func(c tally.Count) bool { return c.Ref == "news.ycombinator.com" }); got != 2 {
			t.Errorf("%d events from news.ycombinator.com, want 2", got)
		}
		rollupAgrees(t, s, "2026-03-01", "2026-03-03")
		var ts int64
		s.db.QueryRow(s.q(`SELECT ts FROM events WHERE name = ?`), "copy-sketch").Scan(&ts)
		if want := time.Date(2026, 3, 2, 10, 2, 0, 0, time.UTC).Unix(); ts != want {
			t.Errorf("ts = %d, want %d (UTC, to the second)", ts, want)
		}
	})
}

func TestConcurrentWriters(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				for range 50 {
					if err := s.Insert(context.Background(), event.Event{Name: "copy-sketch"}, time.Now()); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if n, err := s.Total(context.Background()); n != 1000 || err != nil {
			t.Errorf("%d events stored (%v), want 1000", n, err)
		}
	})
}

func TestImportTakesEachLineOnce(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		ctx := context.Background()
		at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
		var added []bool
		for _, key := range []string{"a", "b", "a", "b", "a"} {
			n, err := s.Keep(ctx, []Item{{Event: event.Event{Name: "copy-sketch"}, At: at, Key: key}})
			if err != nil {
				t.Fatal(err)
			}
			added = append(added, n == 1)
		}
		if fmt.Sprint(added) != "[true true false false false]" {
			t.Errorf("added = %v", added)
		}
		if n, _ := s.Total(ctx); n != 2 {
			t.Errorf("%d events, want 2", n)
		}
	})
}

// TestCountsOrder: the report's golden files need a stable order.
func TestCountsOrder(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := seeded(t, dsn)
		cs, err := s.Counts(context.Background(), "2026-03-01", "2026-03-03")
		if err != nil {
			t.Fatal(err)
		}
		if !sort.SliceIsSorted(cs, func(i, j int) bool {
			return cs[i].Day < cs[j].Day || cs[i].Day == cs[j].Day && cs[i].Name < cs[j].Name
		}) {
			t.Errorf("not in day, name order: %+v", cs)
		}
	})
}

// countEvents is Counts from the raw events, for a test to hold the
// roll-up to.
func (s *Store) countEvents(ctx context.Context, from, to string) ([]tally.Count, error) {
	return s.counts(ctx, `SELECT `+rollupCols()+`, COUNT(*) AS n FROM events WHERE day >= ? AND day <= ?
		GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13`, from, to)
}

// rollupCols are the roll-up's key as expressions over a row of events,
// named as the roll-up's columns: absent fields as the empty string, and
// an engaged event's visible time as VisibleBucket computes it.
// Migration 3's trigger holds the same in SQL.
func rollupCols() string {
	cols := []string{"day", "name"}
	for _, c := range []string{"path", "ref", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "outreach", "checkout"} {
		cols = append(cols, "COALESCE("+c+", '') AS "+c)
	}
	s := "visible_ms / 1000"
	cols = append(cols, "COALESCE(scrolled, 0) AS scrolled",
		"CASE WHEN name <> 'engaged' OR visible_ms IS NULL THEN 0"+
			" WHEN "+s+" < 100 THEN "+s+
			" WHEN "+s+" < 1000 THEN "+s+" / 10 * 10"+
			" WHEN "+s+" < 10000 THEN "+s+" / 100 * 100"+
			" ELSE "+s+" / 1000 * 1000 END AS visible_s")
	return strings.Join(cols, ", ")
}

// rollupAgrees holds the daily roll-up, which the report reads, to the
// events themselves.
func rollupAgrees(t testing.TB, s *Store, from, to string) {
	t.Helper()
	ctx := context.Background()
	got, err := s.Counts(ctx, from, to)
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.countEvents(ctx, from, to)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the daily roll-up:\n%v\ndiffers from the events:\n%v", got, want)
	}
}

// TestMigrationThreeRepairsTheGap: a store that the landed release
// migrated to version 2, written by it (events and daily) and by the
// release before it (events only: the daily gap), gets a roll-up that
// counts every event once.
func TestMigrationThreeRepairsTheGap(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		old := migrations
		migrations = migrations[:2]
		s := open(t, dsn)
		migrations = old
		ctx := context.Background()
		for i, r := range seed {
			at, _ := time.Parse(time.RFC3339, r.at)
			write := insert77aa49a
			if i%2 == 0 {
				write = insertDbc78ec
			}
			if err := write(ctx, s, r.e, at); err != nil {
				t.Fatal(err)
			}
		}
		var daily int
		s.db.QueryRow(`SELECT SUM(n) FROM daily`).Scan(&daily)
		if daily == len(seed) {
			t.Fatalf("the test needs a gap in daily: it counts all %d events", daily)
		}
		s.Close()
		s = open(t, dsn)
		rollupAgrees(t, s, "2026-03-01", "2026-03-03")
		if cs, _ := s.Counts(ctx, "2026-03-01", "2026-03-03"); sum(cs, func(tally.Count) bool { return true }) != len(seed) {
			t.Errorf("the roll-up counts %d events, want %d", sum(cs, func(tally.Count) bool { return true }), len(seed))
		}
	})
}

// TestEveryWriterIsCountedOnce: events inserted by plain SQL, by the
// release before the roll-up (dbc78ec: events only), by the landed release
// (77aa49a: events and daily in one transaction, and its import) and by
// this one are each counted once in what the report reads.
func TestEveryWriterIsCountedOnce(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		ctx := context.Background()
		at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
		e := event.Event{Name: "engaged", Path: "/", VisibleMS: ptr[int64](123_456), Scrolled: ptr(true), Campaign: map[string]string{"utm_term": "x", "utm_content": "y"}}
		writers := []struct {
			name  string
			write func() error
		}{
			{"psql", func() error {
				_, err := s.db.Exec(`INSERT INTO events (ts, day, name, path, visible_ms, scrolled, utm_term, utm_content) VALUES (1772445600, '2026-03-02', 'engaged', '/', 123456, 1, 'x', 'y')`)
				return err
			}},
			{"dbc78ec Insert", func() error { return insertDbc78ec(ctx, s, e, at) }},
			{"dbc78ec Import", func() error { return importDbc78ec(ctx, s, "k1", e, at) }},
			{"77aa49a Insert", func() error { return insert77aa49a(ctx, s, e, at) }},
			{"77aa49a Import", func() error { return import77aa49a(ctx, s, "k2", e, at) }},
			{"this release", func() error { return s.Insert(ctx, e, at) }},
			{"this release's import", func() error { _, err := s.Keep(ctx, []Item{{Event: e, At: at, Key: "k3"}}); return err }},
			{"a batch", func() error { _, err := s.Keep(ctx, []Item{{Event: e, At: at}, {Event: e, At: at}}); return err }},
		}
		for _, w := range writers {
			if err := w.write(); err != nil {
				t.Fatalf("%s: %v", w.name, err)
			}
		}
		cs, err := s.Counts(ctx, "2026-03-02", "2026-03-02")
		if err != nil {
			t.Fatal(err)
		}
		want := []tally.Count{{Day: "2026-03-02", Name: "engaged", Path: "/", Term: "x", Content: "y", Scrolled: true, VisibleS: 120, N: len(writers) + 1}}
		if fmt.Sprint(cs) != fmt.Sprint(want) {
			t.Errorf("counts:\n%+v\nwant:\n%+v", cs, want)
		}
		rollupAgrees(t, s, "2026-03-02", "2026-03-02")
		// And the 77aa49a release's report, which reads daily, counts
		// each of them once too.
		if n, err := total77aa49a(ctx, s, "2026-03-02", "2026-03-02"); err != nil || n != len(writers)+1 {
			t.Errorf("the 77aa49a report counts %d events (%v), want %d", n, err, len(writers)+1)
		}
	})
}

// TestAnOlderReleasesRefInCapitalsCountsAsThisOnesKeepsIt: releases before
// c6f8ccb stored a ref as sent (com.Slack, Slack's app on Android), this one
// in lower case: the report's referrer row, and -ref com.slack, hold both.
func TestAnOlderReleasesRefInCapitalsCountsAsThisOnesKeepsIt(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		ctx := context.Background()
		e, err := event.Parse([]byte(`{"name":"view","path":"/","visible_ms":1,"scrolled":false,"ref":"com.Slack"}`))
		if err != nil {
			t.Fatal(err)
		}
		if err := errors.Join(insertDbc78ec(ctx, s, event.Event{Name: "view", Path: "/", Ref: "com.Slack"}, at), s.Insert(ctx, e, at)); err != nil {
			t.Fatal(err)
		}
		cs, err := s.Counts(ctx, "2026-03-02", "2026-03-02")
		if err != nil {
			t.Fatal(err)
		}
		refs := map[string]int{}
		for _, c := range cs {
			refs[c.Ref] += c.N
		}
		if want := map[string]int{"com.slack": 2}; fmt.Sprint(refs) != fmt.Sprint(want) {
			t.Errorf("views by ref: %v, want %v", refs, want)
		}
	})
}

// TestTheLandedReleasesReportCountsThisReleasesEvents: the 77aa49a
// release's report reads daily and checks no schema version. A store that
// this release wrote at version 3 (daily not filled), migrated, then
// written by this release and by 77aa49a's writer, reads right to it.
func TestTheLandedReleasesReportCountsThisReleasesEvents(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		old := migrations
		migrations = migrations[:3]
		s := open(t, dsn)
		migrations = old
		ctx := context.Background()
		if _, err := s.Keep(ctx, mixed()); err != nil {
			t.Fatal(err)
		}
		s.Close()
		s = open(t, dsn)
		if _, err := s.Keep(ctx, mixed()[:100]); err != nil {
			t.Fatal(err)
		}
		for _, it := range mixed()[:50] {
			if err := insert77aa49a(ctx, s, it.Event, it.At); err != nil {
				t.Fatal(err)
			}
		}
		want, err := s.Total(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := total77aa49a(ctx, s, "2026-01-01", "2026-12-31"); err != nil || n != want {
			t.Errorf("the 77aa49a report counts %d events (%v) of the %d stored", n, err, want)
		}
	})
}

func TestVisibleBucket(t *testing.T) {
	for _, tc := range []struct {
		ms   int64
		want int
	}{
		{0, 0}, {999, 0}, {95_400, 95}, {99_999, 99}, {100_000, 100}, {149_000, 140},
		{999_999, 990}, {1_000_000, 1000}, {1_299_000, 1200}, {12_345_000, 12000},
	} {
		if got := tally.VisibleBucket(tc.ms); got != tc.want {
			t.Errorf("tally.VisibleBucket(%d) = %d, want %d", tc.ms, got, tc.want)
		}
	}
}

// TestTheTriggerBucketsAsGoDoes: the SQL that keys the roll-up agrees
// with VisibleBucket, and only engaged events carry a visible time.
func TestTheTriggerBucketsAsGoDoes(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		ctx := context.Background()
		var items []Item
		for _, ms := range []int64{0, 999, 95_400, 99_999, 100_000, 149_000, 999_999, 1_000_000, 1_299_000, 12_345_000, 1e11} {
			items = append(items, Item{Event: event.Event{Name: "engaged", Path: "/", VisibleMS: ptr(ms), Scrolled: ptr(false)}, At: at},
				Item{Event: event.Event{Name: "view", Path: "/", VisibleMS: ptr(ms), Scrolled: ptr(false)}, At: at})
		}
		if _, err := s.Keep(ctx, items); err != nil {
			t.Fatal(err)
		}
		got, err := s.Counts(ctx, "2026-03-02", "2026-03-02")
		if err != nil {
			t.Fatal(err)
		}
		groups := map[tally.Count]int{}
		for _, it := range items {
			groups[CountOf(it)]++
		}
		var want []tally.Count
		for c, n := range groups {
			c.N = n
			want = append(want, c)
		}
		tally.SortCounts(want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("the roll-up:\n%v\nGo:\n%v", got, want)
		}
	})
}

// TestCountOfIsTheTriggersKey: for each event, the key CountOf makes in
// Go (the journal's counts) is the roll-up row the trigger makes from the
// stored row, field by field. Each field holds a value no other holds, so
// an event field stored in another's column, or read into another's
// Count field, is a difference here.
func TestCountOfIsTheTriggersKey(t *testing.T) {
	all := map[string]string{"utm_source": "src", "utm_medium": "med", "utm_campaign": "camp", "utm_term": "term", "utm_content": "content"}
	for _, tc := range []struct {
		name string
		e    event.Event
	}{
		{"every field", event.Event{Name: "engaged", Path: "/p", Ref: "ref.example", VisibleMS: ptr[int64](95_400), Scrolled: ptr(true), Campaign: all, Outreach: ptr("out")}},
		{"bucketed time", event.Event{Name: "engaged", Path: "/p", VisibleMS: ptr[int64](1_234_567), Scrolled: ptr(false)}},
		{"time only on engaged", event.Event{Name: "view", Path: "/q", VisibleMS: ptr[int64](5_000), Campaign: map[string]string{"utm_term": "t"}}},
		{"no field", event.Event{Name: "human-candidate", Path: "/"}},
		{"checkout", event.Event{Name: "checkout", Checkout: "site"}},
		{"click", event.Event{Name: "copy-sketch"}},
	} {
		it := Item{At: at, Event: tc.e}
		want := CountOf(it)
		want.N = 1
		each(t, func(t *testing.T, dsn string) {
			s := open(t, dsn)
			if _, err := s.Keep(context.Background(), []Item{it}); err != nil {
				t.Fatal(err)
			}
			got, err := s.Counts(context.Background(), want.Day, want.Day)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0] != want {
				t.Errorf("%s: the roll-up holds %+v, CountOf says %+v", tc.name, got, want)
			}
		})
	}
}

// TestCountsRefuseOtherColumns: a column more or less than counts scans
// is an error rather than a count in the wrong field.
func TestCountsRefuseOtherColumns(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := seeded(t, dsn)
		ctx := context.Background()
		for _, query := range []string{
			`SELECT ` + countCols + `, n, 1 AS extra FROM rollup WHERE day >= ? AND day <= ?`,
			`SELECT ` + strings.Replace(countCols, "utm_term, ", "", 1) + `, n FROM rollup WHERE day >= ? AND day <= ?`,
		} {
			if got, err := s.counts(ctx, query, "2026-03-01", "2026-03-03"); err == nil {
				t.Errorf("%s: %v, want an error", query, got)
			}
		}
	})
}

// TestTheLargestEventIsKept: every event the receiver takes is one the
// store can keep. PostgreSQL holds an index row to 2,704 bytes, and the
// roll-ups' keys hold an event's every value: at a body of 8,192 bytes,
// distinct Chinese characters (which no compression shrinks) were over,
// and the function's whole batch went to the not-stored log, which
// -import then failed on at every run; at 2,048, a body of DEL between
// them, each kept as U+FFFD in three bytes, was over again.
func TestTheLargestEventIsKept(t *testing.T) {
	var chars []rune
	for r := rune(0x4e00); len(chars) < 6*event.MaxValue; r++ {
		chars = append(chars, r)
	}
	value := func(i int) string { return string(chars[i*event.MaxValue : (i+1)*event.MaxValue]) }
	body := `{"ref":"` + strings.Repeat("a.", 126) + `a","campaign":{"utm_source":"` + value(0) + `","utm_medium":"` + value(1) +
		`","utm_campaign":"` + value(2) + `","utm_term":"` + value(3) + `","utm_content":"` + value(4) + `"},"outreach":"` + value(5) +
		`","name":"human-candidate","path":"/","visible_ms":1,"scrolled":false}`
	// Cut the values to the largest body the receiver takes.
	var e event.Event
	var err error
	for n := event.MaxValue; n > 0; n-- {
		cut := body
		for i := range 6 {
			cut = strings.Replace(cut, value(i), value(i)[:len(string([]rune(value(i))[:n]))], 1)
		}
		if len(cut) <= event.MaxBody {
			e, err = event.Parse([]byte(cut))
			break
		}
	}
	// And the largest body of DEL, one byte each as JSON.stringify sends it and
	// kept as U+FFFD in three, between characters no compression shrinks.
	var marked event.Event
	err2 := errors.New("no body of DEL was taken")
	for n := event.MaxValue / 2; n > 0 && err2 != nil; n-- {
		v := func(i int) string { return strings.Join(strings.Split(value(i)[:3*n], ""), "\x7f") + "\x7f" }
		marked, err2 = event.Parse([]byte(`{"ref":"` + strings.Repeat("a.", 126) + `a","campaign":{"utm_source":"` + v(0) + `","utm_medium":"` + v(1) +
			`","utm_campaign":"` + v(2) + `","utm_term":"` + v(3) + `","utm_content":"` + v(4) + `"},"outreach":"` + v(5) +
			`","name":"view","path":"/","visible_ms":1,"scrolled":false}`))
	}
	if err = errors.Join(err, err2); err != nil {
		t.Fatal(err)
	}
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		if _, err := s.Keep(context.Background(), []Item{{Event: e, At: time.Now()}, {Event: marked, At: time.Now()}}); err != nil {
			t.Errorf("the receiver takes them, the store does not: %v", err)
		}
	})
}
