package quote

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"errref/internal/benchsite"
)

// TestDriftCommand runs go run ./cmd/build -drift as the scheduled job
// does, from the site folder with the default paths and a clone named by a
// relative path, against acme/lib: the exit code says whether every
// quote holds (0, and one line), one does not (1, and the report) or no
// answer could be given (2, and why, on stderr, the report empty), and
// -json gives the same report as JSON.
func TestDriftCommand(t *testing.T) {
	bin := buildCommand(t)
	work := t.TempDir()
	root := filepath.Join(work, "site")
	if err := benchsite.Make(root, filepath.Join("..", "site", "testdata", "fixture"), 1); err != nil {
		t.Fatal(err)
	}
	lib := library(t)
	git(t, work, "clone", "-q", "--bare", lib, filepath.Join(work, "clones", "lib.git"))
	empty := filepath.Join(work, "clones", "empty")
	git(t, work, "init", "-q", empty)
	if err := os.WriteFile(filepath.Join(work, "clones", "lib.tar"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{
		"current": head + "[`return 30`](cite:acme/lib@v1.2.0:src/app.py#7) and [`return 60`](cite:acme/lib@v2.0.0:src/app.py#6)\n",
		"old":     head + "[`return 30`](cite:acme/lib@v1.0.0:src/app.py#5) and [`return \"three\"`](cite:acme/lib@v1.0.0:src/app.py#8)\n",
		"missing": head + "[`return 30`](cite:acme/lib@v1.9.0:src/app.py#5)\n",
		"broken":  "+++\ntitle = \"t\"\n",
	}
	run := func(page string, args ...string) (int, string, string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, "content", "index.md"), []byte(pages[page]), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = root
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				t.Fatal(err)
			}
		}
		return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
	}
	clone := "acme/lib=../clones/lib.git"
	for _, tc := range []struct {
		name   string
		page   string
		args   []string
		code   int
		stdout string // the whole of it, or with "...", its start and end
		stderr string // held by it
	}{
		{"holds", "current", []string{"-drift", clone}, 0,
			"lib v1.2.0 is the newest 1.x release and v2.0.0 is the newest 2.x release; 2 citations hold\n", ""},
		{"drifted", "old", []string{"-drift", clone}, 1,
			"content/index.md:7: moved: src/app.py#5 is line 7 at v1.2.0\n...; 1 of 2 citations does not hold there (1 changed)\n", ""},
		{"a newer prerelease", "current", []string{"-drift", clone, "-drift-pre"}, 1,
			"content/index.md:7: changed: src/app.py#6: \"return 60\" is not in the file at v2.1.0rc1...(1 changed)\n", ""},
		{"json", "old", []string{"-json", "-drift", clone}, 1, "{\n...}\n", ""},
		{"no tags", "current", []string{"-drift", "acme/lib=../clones/empty"}, 2, "", "../clones/empty has no release tags"},
		{"a file", "current", []string{"-drift", "acme/lib=../clones/lib.tar"}, 2, "", "../clones/lib.tar is a file, not a git clone"},
		{"a tag the page cites is missing", "missing", []string{"-drift", clone}, 2, "", "../clones/lib.git lacks the tag the page cites: v1.9.0"},
		{"json, no answer", "current", []string{"-drift", "acme/lib=../clones/empty", "-json"}, 2, "{\n  \"exit\": 2,\n...}\n", "has no release tags"},
		// A page that does not build is no answer either, not a drift.
		{"a broken page", "broken", []string{"-drift", clone}, 2, "", "content/index.md"},
		{"with -repin", "current", []string{"-drift", clone, "-repin", "acme/lib@v1.2.0=."}, 2, "", "-drift goes without -check-sources, -repin and -serve"},
		{"-json alone", "current", []string{"-json"}, 1, "", "-drift-pre and -json go with -drift"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(tc.page, tc.args...)
			first, last, cut := strings.Cut(tc.stdout, "...")
			okOut := stdout == tc.stdout
			if cut {
				okOut = strings.HasPrefix(stdout, first) && strings.HasSuffix(stdout, last)
			}
			if code != tc.code || !okOut || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit %d, stdout %q, stderr holding %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
			if strings.HasPrefix(tc.stdout, "{") {
				var r struct{ Exit int }
				if err := json.Unmarshal([]byte(stdout), &r); err != nil || r.Exit != tc.code {
					t.Errorf("JSON: %v, exit %d", err, r.Exit)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(root, "public")); err == nil {
		t.Error("-drift wrote public/")
	}
}

// buildCommand builds cmd/build, whose flags -drift's tests run.
func buildCommand(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "build")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", bin, "errref/cmd/build").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
