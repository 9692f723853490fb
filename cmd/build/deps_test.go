package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksNoSQLite: a publish compiles no SQLite (about half of a cold
// build): the preview keeps its events in a journal, and cmd/report,
// which links SQLite, takes them into events.db.
func TestLinksNoSQLite(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "modernc.org/sqlite") {
			t.Errorf("cmd/build depends on %s", p)
		}
	}
}
