package store

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestAFailedMigrationSaysWhatToDo: a store behind this program that it
// cannot migrate is refused with advice for its kind: a role that owns
// the schema is PostgreSQL's; a SQLite file needs a user who may write it.
func TestAFailedMigrationSaysWhatToDo(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		// Version Latest forgotten while its table stays: migrating again fails.
		if _, err := s.db.Exec(s.q(`DELETE FROM schema_migrations WHERE version = ?`), Latest); err != nil {
			t.Fatal(err)
		}
		s.Close()
		_, err := Open(context.Background(), dsn, Options{})
		want := "a role that owns the schema"
		if !strings.HasPrefix(dsn, "postgres") {
			want = "as a user who may write the file and its folder"
		}
		if !errors.Is(err, ErrBehind) || !strings.Contains(err.Error(), want) {
			t.Errorf("Open: %v; want ErrBehind and %q", err, want)
		}
	})
}
