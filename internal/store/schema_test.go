package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestMigrationsMakeTheFrozenSchema: each migration, run in order on a
// fresh store, leaves the schema it always left. The goldens were written
// once from the migrations as they first shipped and are never rewritten:
// a store migrated by any release must be the same store.
func TestMigrationsMakeTheFrozenSchema(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		st := unmigrated(t, dsn)
		ctx := context.Background()
		dialect := "sqlite"
		if st.postgres {
			dialect = "postgres"
		}
		for _, m := range migrations {
			if err := st.apply(ctx, m); err != nil {
				t.Fatalf("migration %d: %v", m.version, err)
			}
			got, err := schemaOf(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "schema", fmt.Sprintf("%s-%d.txt", dialect, m.version))
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				out := filepath.Join(t.TempDir(), filepath.Base(golden))
				os.WriteFile(out, []byte(got), 0o644)
				t.Errorf("after migration %d the schema is not %s's: diff %s %s", m.version, golden, golden, out)
			}
		}
	})
}

// unmigrated opens the empty store at dsn without migrating it, for a
// test to migrate one step at a time: Open would migrate it whole.
func unmigrated(t *testing.T, dsn string) *Store {
	s := &Store{where: Describe(dsn), postgres: IsPostgres(dsn)}
	var err error
	if s.postgres {
		s.db, err = openPostgres(dsn, Options{})
	} else {
		s.db, err = openSQLite(dsn, false, false)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.db.Close() })
	return s
}

// schemaOf describes every table, column, constraint, index, trigger and
// function of the store, in a stable order, with the test's schema name
// and role written as $SCHEMA and $OWNER.
func schemaOf(ctx context.Context, s *Store) (string, error) {
	var queries []string
	if s.postgres {
		queries = []string{
			`SELECT 'column', table_name, column_name || ' ' || data_type || ' ' || is_nullable || ' ' || COALESCE(column_default, '')
				FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
			`SELECT 'constraint', conrelid::regclass::text, conname || ' ' || pg_get_constraintdef(oid)
				FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY 2, 3`,
			`SELECT 'index', tablename, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 2, 3`,
			`SELECT 'trigger', tgrelid::regclass::text, pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
				WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace ORDER BY 2, 3`,
			`SELECT 'function', proname, pg_get_functiondef(oid) || 'ACL ' || COALESCE(proacl::text, '')
				FROM pg_proc WHERE pronamespace = current_schema()::regnamespace ORDER BY 2, 3`,
		}
	} else {
		queries = []string{`SELECT type, name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name`}
	}
	var b strings.Builder
	for _, q := range queries {
		if err := each3(ctx, s.db, q, func(kind, name, def string) {
			fmt.Fprintf(&b, "%s %s: %s\n", kind, name, def)
		}); err != nil {
			return "", err
		}
	}
	out := b.String()
	if s.postgres {
		var schema, user string
		if err := s.db.QueryRowContext(ctx, `SELECT current_schema(), current_user`).Scan(&schema, &user); err != nil {
			return "", err
		}
		out = strings.ReplaceAll(out, schema, "$SCHEMA")
		out = strings.ReplaceAll(out, user+"=", "$OWNER=")
		out = strings.ReplaceAll(out, "/"+user, "/$OWNER")
		// The trigger functions keep the search_path they were made with
		// (SET search_path FROM CURRENT): a test's schema, or, in a
		// database of its own (TEST_DATABASE_PER_TEST, through PgBouncer),
		// the default "$user", public, which names the same schema here.
		out = strings.ReplaceAll(out, `SET search_path TO '$user', '$SCHEMA'`, `SET search_path TO '$SCHEMA'`)
	}
	return out, nil
}

func each3(ctx context.Context, db *sql.DB, query string, f func(a, b, c string)) error {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var a, b, c string
		if err := rows.Scan(&a, &b, &c); err != nil {
			return err
		}
		f(a, b, c)
	}
	return rows.Err()
}

// TestMigrationsRunTheStatementsThatShipped: the statements of each
// migration, byte for byte, are those its release ran; their SHA-256 was
// recorded once. A change to a migration's SQL is a new migration.
func TestMigrationsRunTheStatementsThatShipped(t *testing.T) {
	var b strings.Builder
	for _, m := range migrations {
		fmt.Fprintf(&b, "%d sqlite %x\n", m.version, statementsHash(m.sqlite))
		fmt.Fprintf(&b, "%d postgres %x\n", m.version, statementsHash(m.postgres))
	}
	want, err := os.ReadFile(filepath.Join("testdata", "migrations.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	// A version the record does not hold yet is new, and not checked.
	if got := b.String(); !strings.HasPrefix(got, string(want)) {
		t.Errorf("the migrations' statements changed:\n%s\nwant the first lines to be:\n%s", got, want)
	}
}

func statementsHash(stmts []string) [32]byte {
	return sha256.Sum256([]byte(strings.Join(stmts, "\x00")))
}

func TestLoadMigrationsRefusesWhatItCannotRunInOrder(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	ok := "-- what it does\n\nCREATE TABLE a (x TEXT);\n\nCREATE TABLE b (\n\ty TEXT\n);\n"
	for _, tc := range []struct {
		name  string
		files fstest.MapFS
		want  string
	}{
		{"both dialects", fstest.MapFS{"migrations/sqlite/0001-a.sql": file(ok), "migrations/postgres/0001-a.sql": file(ok)}, ""},
		{"one dialect short", fstest.MapFS{"migrations/sqlite/0001-a.sql": file(ok), "migrations/sqlite/0002-b.sql": file(ok), "migrations/postgres/0001-a.sql": file(ok)}, "each needs both"},
		{"a gap", fstest.MapFS{"migrations/sqlite/0002-a.sql": file(ok), "migrations/postgres/0002-a.sql": file(ok)}, "want migration 1"},
		{"an empty statement", fstest.MapFS{"migrations/sqlite/0001-a.sql": file("CREATE TABLE a (x TEXT);\n\n-- nothing\n;\n"), "migrations/postgres/0001-a.sql": file(ok)}, "statement 2 is empty"},
	} {
		ms, err := loadMigrations(tc.files)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == "":
			want := []string{"CREATE TABLE a (x TEXT)", "CREATE TABLE b (\n\ty TEXT\n)"}
			if len(ms) != 1 || !slices.Equal(ms[0].sqlite, want) || !slices.Equal(ms[0].postgres, want) {
				t.Errorf("%s: %+v, want one migration of %q in each dialect", tc.name, ms, want)
			}
		case err == nil || !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}
