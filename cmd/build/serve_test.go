package main

import (
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeThatCannotStartChangesNothing starts the preview where it
// cannot listen, after an edit that a build would publish: it exits
// non-zero naming the address and saying the output folder was left as
// it was, which must be true: the site folder, public/ and the journal
// are byte for byte as before: the preview tries the port before it
// builds and writes public/.
func TestServeThatCannotStartChangesNothing(t *testing.T) {
	bin := command(t)
	root := newSite(t)
	cmd := exec.Command(bin, "-quiet")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the first build: %v\n%s", err, out)
	}
	home := filepath.Join(root, "content", "index.md")
	data, err := os.ReadFile(home)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(home, append(data, "\nAn edit not yet built.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, tc := range []struct {
		name, addr string
		want       string // in the output
	}{
		{"the port is taken", busy.Addr().String(), "-addr " + busy.Addr().String() + ": "},
		{"no port", "127.0.0.1", `-addr "127.0.0.1": `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshot(t, root)
			cmd := exec.Command(bin, "-serve", "-addr", tc.addr)
			cmd.Dir = root
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the preview exited 0; it printed:\n%s", out)
			}
			for _, want := range []string{tc.want, "The output folder was left as it was."} {
				if !strings.Contains(string(out), want) {
					t.Errorf("the preview printed:\n%s\nwant it to say %q", out, want)
				}
			}
			if after := snapshot(t, root); !maps.Equal(after, before) {
				t.Errorf("the site folder changed: %s", differing(after, before))
			}
		})
	}
}
