package store

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestIsPostgres(t *testing.T) {
	for _, tc := range []struct {
		dsn  string
		want bool
	}{
		{"postgres://u:p@h/db", true},
		{"postgresql://h/db", true},
		{"dbname=x user=y", true},
		{"host=db.internal port=5432 dbname=x", true},
		{"  user = y dbname=x", true},
		{"events.db", false},
		{"C# site/events.db", false},
		{"a=b.db", false}, // a file whose name holds "=", not a libpq keyword
		{"/srv/site/events.db", false},
		{"mysql://u@h/db", false},
	} {
		if got := IsPostgres(tc.dsn); got != tc.want {
			t.Errorf("IsPostgres(%q) = %v, want %v", tc.dsn, got, tc.want)
		}
	}
}

func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		env       map[string]string
		dsn, from string
		err       string
	}{
		{nil, "events.db", "", ""},
		{map[string]string{"SITE_EVENTS_DB": "x.db"}, "x.db", "SITE_EVENTS_DB", ""},
		{map[string]string{"DATABASE_URL": "dbname=x user=y", "SITE_EVENTS_DB": "x.db"}, "dbname=x user=y", "DATABASE_URL", ""},
		{map[string]string{"NETLIFY_DB_URL": "postgres://h/x"}, "postgres://h/x", "NETLIFY_DB_URL", ""},
		{map[string]string{"DATABASE_URL": "mysql://h/x"}, "", "DATABASE_URL", "DATABASE_URL is set but is neither"},
		{map[string]string{"DATABASE_URL": "events.db"}, "", "DATABASE_URL", "DATABASE_URL is set but is neither"},
	} {
		dsn, from, err := Locate(func(k string) string { return tc.env[k] }, "events.db")
		if dsn != tc.dsn || from != tc.from || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Locate(%v) = %q, %q, %v; want %q, %q, %q", tc.env, dsn, from, err, tc.dsn, tc.from, tc.err)
		}
	}
}

// TestOddFolderNames: a store in a folder whose name a URI reads as
// syntax is that folder's file, and nothing is written beside it.
func TestOddFolderNames(t *testing.T) {
	for _, name := range []string{"C# site", "what? site", "100%41 site", "a b&c=d site"} {
		t.Run(name, func(t *testing.T) {
			if runtime.GOOS == "windows" && strings.Contains(name, "?") {
				t.Skip("Windows allows no ? in a name")
			}
			parent := t.TempDir()
			dir := filepath.Join(parent, name)
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "events.db")
			s := open(t, path)
			if err := s.Insert(context.Background(), seed[0].e, at); err != nil {
				t.Fatal(err)
			}
			s.Close()
			if _, err := os.Stat(path); err != nil {
				t.Errorf("the store is not in its folder: %v", err)
			}
			entries, _ := os.ReadDir(parent)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if !slices.Equal(names, []string{name}) {
				t.Errorf("beside the folder: %q, want only %q", names, name)
			}
			r, err := Open(context.Background(), path, Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if n, _ := r.Total(context.Background()); n != 1 {
				t.Errorf("read back %d events, want 1", n)
			}
		})
	}
}

// TestAMissingFileIsNotAnEmptyStore: without Create, a path that names no
// file is an error, and nothing is created.
func TestAMissingFileIsNotAnEmptyStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evnets.db")
	for _, o := range []Options{{}, {ReadOnly: true}} {
		if _, err := Open(context.Background(), path, o); err == nil || !strings.Contains(err.Error(), "no such store") {
			t.Errorf("Open(%+v) of a missing file: %v", o, err)
		}
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("opening a missing store created it")
	}
}

// TestAStalledServerTimesOut: a server that accepts and never answers is an
// error within the connect timeout, not a wait for ever.
func TestAStalledServerTimesOut(t *testing.T) {
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
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c) // read nothing, answer nothing
		}
	}()
	dsn := "postgres://u:secret@" + ln.Addr().String() + "/db?sslmode=disable"
	_, err = Open(context.Background(), dsn, Options{Timeout: 500 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("Open of a stalled server: %v, want a timeout", err)
	}
	if err != nil && strings.Contains(err.Error(), "secret") {
		t.Errorf("the error shows the password: %v", err)
	}
}
