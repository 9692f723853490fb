package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"errref/internal/tally"

	"errref/internal/event"
)

// TestANewerStoreIsRefused: a store at a version this program does not
// know is neither written nor read, and the error names both versions.
func TestANewerStoreIsRefused(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		if _, err := s.db.Exec(s.q(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)`), Latest+1); err != nil {
			t.Fatal(err)
		}
		for _, o := range []Options{{}, {ReadOnly: true}} {
			_, err := Open(context.Background(), dsn, o)
			want := fmt.Sprintf("schema version %d, and this program knows versions up to %d", Latest+1, Latest)
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "git pull") {
				t.Errorf("Open(%+v) = %v, want %q", o, err, want)
			}
		}
		if err := FunctionWriter(dsn, failing{}, &strings.Builder{}).Receive(event.Event{Name: "copy-sketch"}, at); err == nil {
			t.Error("the function's writer kept an event in a store newer than it knows")
		}
		if n, _ := s.Total(context.Background()); n != 0 {
			t.Errorf("%d events were written into a newer store", n)
		}
	})
}

// TestOpeningTakesNoWriteLock: a store at this version opens, and is
// read, while another process holds its write lock (SQLite) or the
// migration lock (PostgreSQL).
func TestOpeningTakesNoWriteLock(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		open(t, dsn).Close()
		other := open(t, dsn)
		ctx := context.Background()
		tx, err := other.db.BeginTx(ctx, nil) // SQLite: BEGIN IMMEDIATE
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if other.postgres {
			if _, err := tx.Exec(`SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
				t.Fatal(err)
			}
		} else if _, err := tx.Exec(s(other, `INSERT INTO events (ts, day, name) VALUES (0, '2026-03-02', 'x')`)); err != nil {
			t.Fatal(err)
		}
		for _, o := range []Options{{}, {ReadOnly: true}} {
			// Well under SQLite's 5 s busy timeout: opening must not wait.
			ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			st, err := Open(ctx, dsn, o)
			if err != nil {
				cancel()
				t.Fatalf("Open(%+v) while another holds the lock: %v", o, err)
			}
			if _, err := st.Counts(ctx, "2026-03-01", "2026-03-31"); err != nil {
				t.Errorf("Counts(%+v) while another holds the lock: %v", o, err)
			}
			st.Close()
			cancel()
		}
	})
}

func s(st *Store, q string) string { return st.q(q) }

// readOnlyChild is the environment variable that makes TestReadsAReadOnlyFile
// the child it starts as another user.
const readOnlyChild = "STORE_TEST_READ_ONLY_FILE"

// TestReadsAReadOnlyFile: the report reads a store it may not write: the
// file 0444 in a folder 0555. As root, where modes do not bind, the check
// runs in a child process as the user nobody. A writer that crashed left
// an event in the store's -wal, which SQLite cannot read without making
// the -shm file: the report says so, and never counts without it.
func TestReadsAReadOnlyFile(t *testing.T) {
	if path := os.Getenv(readOnlyChild); path != "" {
		want, _ := strconv.Atoi(os.Getenv(readOnlyChild + "_EVENTS"))
		st, err := Open(context.Background(), path, Options{ReadOnly: true})
		if err != nil && want > len(seed) && strings.Contains(err.Error(), path+"-wal") {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		cs, err := st.Counts(context.Background(), "2026-03-01", "2026-03-03")
		if err != nil {
			t.Fatal(err)
		}
		if n := sum(cs, func(tally.Count) bool { return true }); n != want {
			t.Fatalf("read %d events, want %d", n, want)
		}
		if _, err := st.db.Exec(`INSERT INTO events (ts, day, name) VALUES (0, '2026-03-02', 'x')`); err == nil {
			t.Fatal("a read-only store took a write")
		}
		return
	}
	dir, err := os.MkdirTemp("", "readonly")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	t.Cleanup(func() { os.Chmod(dir, 0o755); os.RemoveAll(dir) })
	odd := "C# what? 100%41" // a URI's syntax
	if runtime.GOOS == "windows" {
		odd = "C# what 100%41" // Windows allows no ? in a name
	}
	path := filepath.Join(dir, odd, "events.db")
	if err := os.Mkdir(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	seeded(t, path).Close()
	// The crashed writer's files: the seed in the store, one event more in its -wal.
	crashed := filepath.Join(filepath.Dir(path), "crashed.db")
	c := seeded(t, crashed+".src")
	if _, err := c.db.Exec(`PRAGMA wal_checkpoint`); err != nil {
		t.Fatal(err)
	}
	if err := c.Insert(context.Background(), event.Event{Name: "copy-sketch"}, at); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(crashed + ".src" + suffix)
		if err == nil {
			err = os.WriteFile(crashed+suffix, b, 0o444)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(path), 0o555); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		// The test binary, where nobody may run it.
		data, _ := os.ReadFile(exe)
		exe = filepath.Join(dir, "store.test")
		if err := os.WriteFile(exe, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, events := range map[string]int{path: len(seed), crashed: len(seed) + 1} {
		cmd := exec.Command(exe, "-test.run=^TestReadsAReadOnlyFile$", "-test.v")
		cmd.Env = append(os.Environ(), readOnlyChild+"="+path, readOnlyChild+"_EVENTS="+strconv.Itoa(events), "HOME="+dir, "GOCACHE="+dir)
		if os.Geteuid() == 0 && !asNobody(cmd) {
			t.Skip("running as root, and this system cannot start a process as nobody: modes do not bind root")
		}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "PASS") {
			t.Errorf("reading %s (0444, folder 0555) as uid %d: %v\n%s", path, childUID(cmd), err, out)
		}
	}
}

// TestRolesOfLeastPrivilege: with the README's roles, the function's
// writer (INSERT on events, SELECT on schema_migrations) stores and is
// counted, the report's reader (SELECT) reads, cannot write and cannot
// open a writer, and a writer facing a store behind this release is told
// to migrate.
func TestRolesOfLeastPrivilege(t *testing.T) {
	dsn := pgSchema(t)
	if os.Getenv("TEST_DATABASE_PER_TEST") == "1" {
		t.Skip("SKIPPING the roles through a pooler: a new role would need its password in the pooler's auth file; the direct run tests them")
	}
	open(t, dsn).Close()
	admin := pgAdmin(t, dsn)
	t.Cleanup(func() { admin.Close() }) // after the roles' cleanups
	var schema string
	admin.QueryRow(`SELECT current_schema()`).Scan(&schema)
	writer := role(t, admin, schema, "w", "GRANT USAGE ON SCHEMA %[1]s TO %[2]s; GRANT SELECT ON %[1]s.schema_migrations TO %[2]s; GRANT INSERT ON %[1]s.events TO %[2]s")
	reader := role(t, admin, schema, "r", "GRANT USAGE ON SCHEMA %[1]s TO %[2]s; GRANT SELECT ON %[1]s.schema_migrations, %[1]s.rollup, %[1]s.sales TO %[2]s")
	ctx := context.Background()

	var errs strings.Builder
	if err := FunctionWriter(writer, failing{}, &errs).Receive(event.Event{Name: "checkout", Checkout: "site"}, at); err != nil {
		t.Fatalf("the writer role: %v; %s", err, errs.String())
	}
	w, err := Open(ctx, writer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Keep(ctx, mixed()); err != nil {
		t.Errorf("the writer role, a batch: %v", err)
	}
	w.Close()

	r, err := Open(ctx, reader, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the reader role: %v", err)
	}
	defer r.Close()
	cs, err := r.Counts(ctx, "2026-03-01", "2026-03-31")
	if err != nil {
		t.Fatalf("the reader role: %v", err)
	}
	if n := sum(cs, func(tally.Count) bool { return true }); n != len(mixed())+1 {
		t.Errorf("the reader counts %d events, want %d", n, len(mixed())+1)
	}
	if err := r.Insert(ctx, event.Event{Name: "x"}, at); err == nil {
		t.Error("the reader role wrote")
	}
	// Its URL left in DATABASE_URL where the preview starts: opened to
	// write, it would send every event to not-stored.jsonl; it is refused.
	// The refusal names the role each use needs: a writer's cannot -import.
	if s, err := Open(ctx, reader, Options{}); err == nil || !strings.Contains(err.Error(), "may not add events") || !strings.Contains(err.Error(), "-import the owner's") {
		t.Errorf("opened to write as the reader: %v; want it refused", err)
		if err == nil {
			s.Close()
		}
	}
	// Sales: the reader reads them, and neither the reader nor the
	// writer can add or read one.
	recs, _ := gumroadFixture(t)
	if _, err := r.Sales(ctx, "2026-03-01", "2026-03-31"); err != nil {
		t.Errorf("the reader role, sales: %v", err)
	}
	if _, err := r.KeepSales(ctx, seq(recs...)); err == nil {
		t.Error("the reader role stored sales")
	}
	w, err = Open(ctx, writer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.KeepSales(ctx, seq(recs...)); err == nil {
		t.Error("the writer role stored sales")
	}
	if _, err := w.Sales(ctx, "2026-03-01", "2026-03-31"); err == nil {
		t.Error("the writer role read sales")
	}
	w.Close()

	// A store behind this release: the writer cannot migrate it.
	if _, err := admin.Exec(`DELETE FROM schema_migrations WHERE version = $1`, Latest); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, writer, Options{})
	if !errors.Is(err, ErrBehind) || !strings.Contains(err.Error(), "-migrate") {
		t.Errorf("the writer facing an old store: %v", err)
	}
}

// role makes a login role for one test with grants (%[1]s the schema,
// %[2]s the role), dropped when the test ends, and returns its URL.
func role(t *testing.T, admin *sql.DB, schema, kind, grants string) string {
	t.Helper()
	name := schema + "_" + kind
	if _, err := admin.Exec(fmt.Sprintf(`CREATE ROLE %s LOGIN PASSWORD 'pw'`, name)); err != nil {
		t.Fatalf("CREATE ROLE (errref needs CREATEROLE): %v", err)
	}
	t.Cleanup(func() {
		// Before the schema goes: a role that still holds grants cannot
		// be dropped.
		for _, q := range []string{
			`REVOKE ALL ON ALL TABLES IN SCHEMA ` + schema + ` FROM ` + name,
			`REVOKE ALL ON SCHEMA ` + schema + ` FROM ` + name,
			`DROP ROLE ` + name,
		} {
			if _, err := admin.Exec(q); err != nil {
				t.Errorf("%s: %v", q, err)
			}
		}
	})
	for _, g := range strings.Split(fmt.Sprintf(grants, schema, name), "; ") {
		if _, err := admin.Exec(g); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
	}
	u, err := url.Parse(os.Getenv("TEST_DATABASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(name, "pw")
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// TestAReaderGrantedBeforeTheSales: a reader role granted as docs/store.md
// said before migration 5 (no SELECT on sales) reads the counts, and its
// read of the sales is ErrSalesDenied, naming the GRANT to add, which then
// lets it read them.
func TestAReaderGrantedBeforeTheSales(t *testing.T) {
	dsn := pgSchema(t)
	if os.Getenv("TEST_DATABASE_PER_TEST") == "1" {
		t.Skip("SKIPPING the roles through a pooler: a new role would need its password in the pooler's auth file; the direct run tests them")
	}
	open(t, dsn).Close()
	admin := pgAdmin(t, dsn)
	t.Cleanup(func() { admin.Close() })
	var schema string
	admin.QueryRow(`SELECT current_schema()`).Scan(&schema)
	reader := role(t, admin, schema, "r", "GRANT USAGE ON SCHEMA %[1]s TO %[2]s; GRANT SELECT ON %[1]s.schema_migrations, %[1]s.rollup TO %[2]s")
	ctx := context.Background()
	r, err := Open(ctx, reader, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Counts(ctx, "2026-03-01", "2026-03-31"); err != nil {
		t.Errorf("the counts: %v", err)
	}
	_, err = r.Sales(ctx, "2026-03-01", "2026-03-31")
	grant := "GRANT SELECT ON sales TO " + schema + "_r;"
	if !errors.Is(err, ErrSalesDenied) || !strings.HasSuffix(err.Error(), grant) {
		t.Fatalf("the sales: %v; want ErrSalesDenied ending %q", err, grant)
	}
	if _, err := admin.Exec(strings.TrimSuffix(grant, ";")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Sales(ctx, "2026-03-01", "2026-03-31"); err != nil {
		t.Errorf("after %s: %v", grant, err)
	}
}
