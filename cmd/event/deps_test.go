package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksNoSQLite: the function, built as Netlify builds it, links no
// SQLite: it only ever writes to PostgreSQL or its log.
func TestLinksNoSQLite(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "lambda.norpc", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "modernc.org/sqlite") {
			t.Errorf("cmd/event depends on %s", p)
		}
	}
}
