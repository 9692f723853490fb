package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"errref/internal/event"
	"errref/internal/needs"
	"errref/internal/store"
)

// TestMain runs the command itself when the test asks for it: each case
// below is a whole process, with its own arguments, environment and exit.
func TestMain(m *testing.M) {
	if os.Getenv("REPORT_TEST_MAIN") == "1" {
		os.Args = append([]string{"report"}, strings.Fields(os.Getenv("REPORT_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	needs.Hermetic()
	os.Exit(m.Run())
}

// runReport runs the command in dir with args and env, and returns its
// exit code, stdout and stderr.
func runReport(t *testing.T, dir string, env []string, args ...string) (int, string, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append(env, "REPORT_TEST_MAIN=1", "REPORT_TEST_ARGS="+strings.Join(args, " "))...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errs.String()
}

func TestAMistypedStoreIsRefusedNotCreated(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runReport(t, dir, nil, "-db", "evnets.db")
	if code != 1 || !strings.Contains(errs, "evnets.db: no such store") || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "evnets.db")); err == nil {
		t.Error("the report created the store it was asked to read")
	}
}

// TestTheReportTakesThePreviewsJournal: what the preview kept in
// events.jsonl is counted, taken once, and the report names what it read.
func TestTheReportTakesThePreviewsJournal(t *testing.T) {
	dir := t.TempDir()
	j, _, err := store.OpenJournal(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	items := []store.Item{
		{Event: event.Event{Name: "view", Path: "/a/", VisibleMS: new(int64), Scrolled: new(bool)}, At: now},
		{Event: event.Event{Name: "checkout", Checkout: "site"}, At: now},
	}
	if _, err := j.Keep(context.Background(), items); err != nil {
		t.Fatal(err)
	}
	j.Close()
	code, out, errs := runReport(t, dir, nil, "-since", "7d")
	if code != 0 || !strings.Contains(errs, "took 2 events from "+filepath.Join(".", "events.jsonl")) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	today := now.UTC().Format(time.DateOnly)
	if !strings.Contains(errs, "report: "+filepath.Join(".", "events.db")) || !strings.Contains(errs, "to "+today+" (UTC days)") {
		t.Errorf("stderr does not name the store and the period: %q", errs)
	}
	if !strings.Contains(out, "buy-link clicks site") || !strings.Contains(out, "/a/") {
		t.Errorf("stdout:\n%s", out)
	}
	code, _, errs = runReport(t, dir, nil, "-since", "7d")
	if code != 0 || strings.Contains(errs, "took") {
		t.Errorf("second run: exit %d, stderr %q", code, errs)
	}
	st, err := store.Open(context.Background(), filepath.Join(dir, "events.db"), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, _ := st.Total(context.Background()); n != 2 {
		t.Errorf("%d events in events.db after two reports, want 2", n)
	}
}

// TestABusyFileSaysWhatToDo: a report that cannot write events.db, because
// another program holds its write lock longer than the busy timeout, fails
// saying so and what to do, not with SQLite's words alone.
func TestABusyFileSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(dir, "events.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	j, _, err := store.OpenJournal(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Keep(context.Background(), []store.Item{{Event: event.Event{Name: "copy-sketch"}, At: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	db, err := sql.Open("sqlite", filepath.Join(dir, "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runReport(t, dir, nil)
	if code != 1 || !strings.Contains(errs, "another program is writing "+filepath.Join(".", "events.db")) {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestSinceBeyondWhatItCanCount(t *testing.T) {
	code, _, errs := runReport(t, t.TempDir(), nil, "-since", "213505d")
	if code != 1 || !strings.Contains(errs, "-since 213505d: at most") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// TestSinceWithFromIsRefused: -from sets the period's start, so a -since
// beside it would be silently ignored.
func TestSinceWithFromIsRefused(t *testing.T) {
	code, _, errs := runReport(t, t.TempDir(), nil, "-since", "7d", "-from", "2026-11-01")
	if code != 1 || !strings.Contains(errs, "-since and -from: choose one") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestAnImportReportsEachRefusedLine(t *testing.T) {
	dir := t.TempDir()
	log := "{\"ts\":\"2026-03-02T10:00:00Z\",\"name\":\"copy-sketch\"}\n" +
		"{\"ts\":\"2026-03-02T10:00:00Z\",\"name\":\"bad name\"}\n" +
		"{\"ts\":\"2026-03-02T10:00:01Z\",\"name\":\"copy-sketch\",\"x\":\"\xff\"}\n"
	os.WriteFile(filepath.Join(dir, "log.jsonl"), []byte(log), 0o644)
	code, _, errs := runReport(t, dir, nil, "-import", "log.jsonl")
	if code != 1 || !strings.Contains(errs, "line 2: name must be") || !strings.Contains(errs, "line 3: not UTF-8") || !strings.Contains(errs, "1 added") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestAStalledServerIsAnError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	code, _, errs := runReport(t, t.TempDir(), []string{"DATABASE_URL=postgres://u:secret@" + ln.Addr().String() + "/db?sslmode=disable&connect_timeout=1"})
	if code != 1 || !strings.Contains(errs, "timeout") || !strings.Contains(errs, "DATABASE_URL") || strings.Contains(errs, "secret") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestADatabaseURLThatIsNeither(t *testing.T) {
	code, _, errs := runReport(t, t.TempDir(), []string{"DATABASE_URL=mysql://u@h/db"})
	if code != 1 || !strings.Contains(errs, "DATABASE_URL is set but is neither") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// appendFile appends the fixture testdata/name to the file at path.
func appendFile(t *testing.T, path, name string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// total is how many events the SQLite store at path holds.
func total(t *testing.T, path string) int {
	t.Helper()
	st, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	n, err := st.Total(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestTheReportNamesARefusedJournalLineByItsLineInTheFile: the report
// takes the journal in steps; a line it refuses is named by its number in
// the file, not from where the report last stopped, and the command it
// advises unblocks the plain report.
func TestTheReportNamesARefusedJournalLineByItsLineInTheFile(t *testing.T) {
	dir := t.TempDir()
	journal := filepath.Join(dir, "events.jsonl")
	appendFile(t, journal, "two-events.jsonl")
	if code, _, errs := runReport(t, dir, nil); code != 0 || !strings.Contains(errs, "took 2 events") {
		t.Fatalf("first report: exit %d, stderr %q", code, errs)
	}
	appendFile(t, journal, "then-a-bad-line.jsonl")
	code, _, errs := runReport(t, dir, nil)
	if code != 1 || !strings.Contains(errs, "events.jsonl:4: unknown key") || strings.Contains(errs, ":2: unknown") {
		t.Fatalf("exit %d, stderr %q; want line 4 named", code, errs)
	}
	_, advice, ok := strings.Cut(errs, "remove it (")
	advice, _, _ = strings.Cut(advice, "), then")
	if !ok || !strings.HasPrefix(advice, "sed -i.bak '4d' ") {
		t.Fatalf("the advice %q is not the command that removes line 4", advice)
	}
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("no sed to run the advice with")
	}
	sh := exec.Command("sh", "-c", advice)
	sh.Dir = dir
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", advice, err, out)
	}
	if code, _, errs := runReport(t, dir, nil); code != 0 {
		t.Fatalf("after %s: exit %d, stderr %q", advice, code, errs)
	}
	if n := total(t, filepath.Join(dir, "events.db")); n != 4 {
		t.Errorf("%d events stored, want the 4 good lines", n)
	}
}

// TestTheReportSaysWhenItLeavesACutLastLine: a last line without its
// line end (a preview writing it, or a SIGKILL in the middle of a write)
// is left untaken with a warning, and taken once whole.
func TestTheReportSaysWhenItLeavesACutLastLine(t *testing.T) {
	dir := t.TempDir()
	journal := filepath.Join(dir, "events.jsonl")
	appendFile(t, journal, "two-events.jsonl")
	appendFile(t, journal, "cut-line.part")
	code, _, errs := runReport(t, dir, nil)
	if code != 0 || !strings.Contains(errs, "took 2 events") || !strings.Contains(errs, "warning: "+filepath.Join(".", "events.jsonl")+": left its last line untaken") {
		t.Fatalf("exit %d, stderr %q; want 2 taken and the cut line named", code, errs)
	}
	appendFile(t, journal, "cut-line.rest")
	code, _, errs = runReport(t, dir, nil)
	if code != 0 || !strings.Contains(errs, "took 1 events") || strings.Contains(errs, "warning") {
		t.Errorf("once whole: exit %d, stderr %q; want the line taken, no warning", code, errs)
	}
}

// TestAStoreNamedButMissingIsNotMadeToTakeTheJournal: with a journal in
// the folder, a mistyped store is still refused, not created and filled;
// only the default events.db is made to take the journal.
func TestAStoreNamedButMissingIsNotMadeToTakeTheJournal(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"-db", nil, []string{"-db", "evnets.db"}},
		{"SITE_EVENTS_DB", []string{"SITE_EVENTS_DB=evnets.db"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			appendFile(t, filepath.Join(dir, "events.jsonl"), "two-events.jsonl")
			code, out, errs := runReport(t, dir, tc.env, tc.args...)
			if code != 1 || !strings.Contains(errs, "evnets.db: no such store") || !strings.Contains(errs, tc.name) || out != "" {
				t.Errorf("exit %d, %d bytes on stdout, stderr %q", code, len(out), errs)
			}
			if _, err := os.Stat(filepath.Join(dir, "evnets.db")); err == nil {
				t.Error("the report created the store it was asked to read, and filled it from the journal")
			}
		})
	}
}

// TestAReaderThatMayNotReadTheSales: a reader role granted as docs/store.md
// said before migration 5 (no SELECT on sales) gets the readers' funnel,
// without the sales, and a line naming the GRANT to add, in the report too.
func TestAReaderThatMayNotReadTheSales(t *testing.T) {
	base := needs.Postgres(t)
	if os.Getenv("TEST_DATABASE_PER_TEST") == "1" {
		t.Skip("SKIPPING a role through a pooler: a new role would need its password in the pooler's auth file; the direct run tests it")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() }) // after the schema and the role go
	schema := fmt.Sprintf("t_report_%d", time.Now().UnixNano())
	for _, q := range []string{"CREATE SCHEMA " + schema, "CREATE ROLE " + schema + "_r LOGIN PASSWORD 'pw'"} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s (errref needs CREATEROLE): %v", q, err)
		}
	}
	t.Cleanup(func() {
		for _, q := range []string{"DROP SCHEMA " + schema + " CASCADE", "DROP ROLE " + schema + "_r"} {
			if _, err := admin.Exec(q); err != nil {
				t.Errorf("%s: %v", q, err)
			}
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	owner := u.String()
	dir := t.TempDir()
	log := filepath.Join(dir, "log.jsonl")
	os.WriteFile(log, []byte(`{"ts":"2026-03-01T10:00:00Z","stored":false,"name":"view","path":"/","visible_ms":0,"scrolled":false}`+"\n"), 0o644)
	export, _ := filepath.Abs("../../internal/sales/testdata/gumroad-5-sales.csv")
	for _, args := range [][]string{{"-migrate"}, {"-import", log}, {"-import-sales", export}} {
		if code, _, errs := runReport(t, dir, []string{"DATABASE_URL=" + owner}, args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	// The grants docs/store.md gave before migration 5.
	if _, err := admin.Exec(fmt.Sprintf("GRANT USAGE ON SCHEMA %[1]s TO %[1]s_r; GRANT SELECT ON %[1]s.schema_migrations, %[1]s.rollup TO %[1]s_r", schema)); err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(schema+"_r", "pw")
	code, out, errs := runReport(t, dir, []string{"DATABASE_URL=" + u.String()}, "-from", "2026-03-01", "-to", "2026-03-03")
	grant := "GRANT SELECT ON sales TO " + schema + "_r;"
	if code != 0 || !strings.Contains(out, "views                       1") || strings.Contains(out, "Sales by channel") || !strings.Contains(errs, "the report leaves the sales out") || !strings.Contains(errs, grant) {
		t.Errorf("exit %d, stderr %q\n%s", code, errs, out)
	}
	// The report itself says so, where a page or a script reads it: not that there are none.
	for _, format := range []string{"-html=-", "-json", "-from=2026-03-01"} {
		_, out, _ := runReport(t, dir, []string{"DATABASE_URL=" + u.String()}, format)
		if !strings.Contains(out, grant) || strings.Contains(out, "holds none") {
			t.Errorf("%s: the report does not say the sales were left out and why:\n%s", format, out)
		}
	}
}

// TestEventsNotStoredAreNamed: events PostgreSQL did not take from the
// preview wait in not-stored.jsonl; a report that does not count them
// says how many wait there, in every form, rather than look whole.
func TestEventsNotStoredAreNamed(t *testing.T) {
	dir := t.TempDir()
	j, _, err := store.OpenJournal(filepath.Join(dir, store.NotStored))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	items := []store.Item{
		{Event: event.Event{Name: "view", Path: "/a/", VisibleMS: new(int64), Scrolled: new(bool)}, At: now},
		{Event: event.Event{Name: "view", Path: "/b/", VisibleMS: new(int64), Scrolled: new(bool)}, At: now},
	}
	if _, err := j.Keep(context.Background(), items); err != nil {
		t.Fatal(err)
	}
	j.Close()
	want := "not-stored.jsonl in the site folder holds 2 events PostgreSQL did not take"
	for _, args := range [][]string{{"-since", "7d"}, {"-since", "7d", "-json"}, {"-since", "7d", "-html", "-"}} {
		code, out, errs := runReport(t, dir, nil, args...)
		if code != 0 || !strings.Contains(errs, "report: warning: "+want) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
		if !strings.Contains(out, want) {
			t.Errorf("%v: the report does not say what waits in not-stored.jsonl:\n%s", args, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, store.NotStored), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runReport(t, dir, nil, "-since", "7d"); code != 0 || strings.Contains(out+errs, store.NotStored) {
		t.Errorf("an empty not-stored.jsonl: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestEventsDatedAfterTodayAreNamed: an event dated after today (a clock
// ahead where it was received) is in no period the report may show, since
// -to stops at today: the report names their days, rather than leave them out
// without a word.
func TestEventsDatedAfterTodayAreNamed(t *testing.T) {
	dir := t.TempDir()
	j, _, err := store.OpenJournal(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	view := event.Event{Name: "view", Path: "/a/", VisibleMS: new(int64), Scrolled: new(bool)}
	items := []store.Item{{Event: view, At: now}, {Event: view, At: now.AddDate(0, 0, 1)}, {Event: view, At: now.AddDate(1, 0, 0)}}
	if _, err := j.Keep(context.Background(), items); err != nil {
		t.Fatal(err)
	}
	j.Close()
	for _, args := range [][]string{nil, {"-since", "1d", "-json"}} {
		code, _, errs := runReport(t, dir, nil, args...)
		if code != 0 || !strings.Contains(errs, "report: warning: the store holds events dated after today, "+now.Format(time.DateOnly)+" (UTC), from "+now.AddDate(0, 0, 1).Format(time.DateOnly)+" to "+now.AddDate(1, 0, 0).Format(time.DateOnly)) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestAnImportCutShortSaysToRunItAgain: an -import that fails part way (a
// full disk, a pooler gone, a lost COMMIT whose batch took) keeps the batches
// it stored, and may have stored more than it says: it tells the user to run
// it again, which takes the rest and nothing twice.
func TestAnImportCutShortSaysToRunItAgain(t *testing.T) {
	dir := t.TempDir()
	var log strings.Builder
	at := time.Now().UTC()
	for i := range 6000 {
		oc := fmt.Sprint(i)
		if i == 5500 {
			oc = "stop"
		}
		log.Write(event.Event{Name: "view", Path: "/a/", VisibleMS: new(int64), Scrolled: new(bool), Outreach: &oc}.NotStoredLine(at.Add(time.Duration(i) * time.Millisecond)))
	}
	os.WriteFile(filepath.Join(dir, "log.jsonl"), []byte(log.String()), 0o644)
	if code, _, errs := runReport(t, dir, nil, "-migrate"); code != 0 {
		t.Fatalf("-migrate: exit %d, stderr %q", code, errs)
	}
	// The second batch fails, as a full disk would fail it.
	db, err := sql.Open("sqlite", filepath.Join(dir, "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER full BEFORE INSERT ON events WHEN NEW.outreach = 'stop' BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runReport(t, dir, nil, "-import", "log.jsonl")
	if code != 1 || !strings.Contains(errs, "5000 added") || !strings.Contains(errs, "run the same -import again") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, err := db.Exec(`DROP TRIGGER full`); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runReport(t, dir, nil, "-import", "log.jsonl")
	if code != 0 || !strings.Contains(errs, "1000 added, 5000 taken before") {
		t.Errorf("again: exit %d, stderr %q", code, errs)
	}
}
