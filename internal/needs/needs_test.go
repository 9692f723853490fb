package needs

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// childEnv makes TestChild run: the tests below run this package's test
// binary again as a package whose tests need a browser and a server.
const childEnv = "NEEDS_TEST_CHILD"

// TestChild is that package: three browser tests (in parallel, as a
// package's may be), two PostgreSQL tests, and one that needs nothing.
// Without childEnv it does nothing.
func TestChild(t *testing.T) {
	if os.Getenv(childEnv) != "1" {
		return
	}
	for _, name := range []string{"browser1", "browser2", "browser3"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			Browser(t)
		})
	}
	for _, name := range []string{"postgres1", "postgres2"} {
		t.Run(name, func(t *testing.T) { Postgres(t) })
	}
	t.Run("plain", func(t *testing.T) {})
}

const (
	browserMessage  = "; or skip the browser tests knowingly with SKIP_BROWSER=1."
	postgresMessage = "; or skip the PostgreSQL tests knowingly with SKIP_POSTGRES=1."
)

// env is the child's environment: none of the variables this package
// reads but those given (CI sets REQUIRE_* and TEST_DATABASE_URL).
func env(kv ...string) []string {
	var e []string
	for _, s := range os.Environ() {
		switch k, _, _ := strings.Cut(s, "="); k {
		case "CHROME_PATH", "TEST_DATABASE_URL", "SKIP_BROWSER", "SKIP_POSTGRES", "REQUIRE_BROWSER", "REQUIRE_POSTGRES":
		default:
			e = append(e, s)
		}
	}
	return append(append(e, childEnv+"=1"), kv...)
}

// missing is the environment of a machine without Chromium or a server.
func missing(t *testing.T, kv ...string) []string {
	return env(append([]string{"CHROME_PATH=" + filepath.Join(t.TempDir(), "no-chromium")}, kv...)...)
}

// child runs TestChild verbosely in this test binary, its output going
// to a file as in go test ./... > log, and returns the output and
// whether it passed.
func child(t *testing.T, env []string) (string, bool) {
	t.Helper()
	log := filepath.Join(t.TempDir(), "log")
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.v", "-test.count=1")
	cmd.Env, cmd.Stdout, cmd.Stderr = env, f, f
	err = cmd.Run()
	f.Close()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	out, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), exit == nil
}

// TestMissingFailsOnce: without Chromium or a server the package fails,
// each message printed once, and the test that needs neither passes.
func TestMissingFailsOnce(t *testing.T) {
	out, ok := child(t, missing(t))
	if ok {
		t.Errorf("the tests passed without Chromium or a server:\n%s", out)
	}
	for _, m := range []string{browserMessage, postgresMessage} {
		if n := strings.Count(out, m); n != 1 {
			t.Errorf("%q printed %d times, want once:\n%s", m, n, out)
		}
	}
	if !strings.Contains(out, "--- PASS: TestChild/plain") {
		t.Errorf("the test that needs nothing did not pass:\n%s", out)
	}
}

// TestSkipWhenAsked: SKIP_BROWSER=1 and SKIP_POSTGRES=1 skip them, and
// -v says so and why.
func TestSkipWhenAsked(t *testing.T) {
	out, ok := child(t, missing(t, "SKIP_BROWSER=1", "SKIP_POSTGRES=1"))
	if !ok {
		t.Errorf("the tests failed under SKIP_BROWSER=1 SKIP_POSTGRES=1:\n%s", out)
	}
	for _, want := range []string{
		"--- SKIP: TestChild/browser1", "--- SKIP: TestChild/browser3", "skipped: SKIP_BROWSER=1",
		"--- SKIP: TestChild/postgres2", "skipped: SKIP_POSTGRES=1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	// One kind skipped, the other still fails.
	out, ok = child(t, missing(t, "SKIP_BROWSER=1"))
	if ok || strings.Contains(out, browserMessage) || !strings.Contains(out, postgresMessage) {
		t.Errorf("SKIP_BROWSER=1 alone: passed %v:\n%s", ok, out)
	}
}

// TestRequireForbidsSkipping: CI's REQUIRE_*=1 overrides SKIP_*=1.
func TestRequireForbidsSkipping(t *testing.T) {
	out, ok := child(t, missing(t, "SKIP_BROWSER=1", "SKIP_POSTGRES=1", "REQUIRE_BROWSER=1", "REQUIRE_POSTGRES=1"))
	if ok || strings.Count(out, "(REQUIRE_BROWSER=1 is set: these tests may not skip).") != 1 ||
		strings.Count(out, "(REQUIRE_POSTGRES=1 is set: these tests may not skip).") != 1 {
		t.Errorf("REQUIRE_*=1 with SKIP_*=1 and nothing there: passed %v:\n%s", ok, out)
	}
}

// TestPresentRuns: with a browser to start and a server's URL, every test
// runs, whatever SKIP_* says under REQUIRE_*.
func TestPresentRuns(t *testing.T) {
	exe, err := os.Executable() // a program that exists, standing in for Chromium
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][]string{nil, {"SKIP_BROWSER=1", "SKIP_POSTGRES=1", "REQUIRE_BROWSER=1", "REQUIRE_POSTGRES=1"}} {
		out, ok := child(t, env(append([]string{"CHROME_PATH=" + exe, "TEST_DATABASE_URL=postgres://u@127.0.0.1/db"}, kv...)...))
		if !ok || strings.Contains(out, "--- SKIP") {
			t.Errorf("%v: passed %v:\n%s", kv, ok, out)
		}
	}
}

// TestGoTestSaysIt runs the package as a user does, go test in package
// list mode with the output in a file, twice: both runs fail with the
// message, the second not from the cache.
func TestGoTestSaysIt(t *testing.T) {
	env := missing(t) // the same both times, as a rerun's
	for i := range 2 {
		log := filepath.Join(t.TempDir(), "log")
		f, err := os.Create(log)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "test", "-run=^TestChild$", ".")
		cmd.Env, cmd.Stdout, cmd.Stderr = env, f, f
		err = cmd.Run()
		f.Close()
		if exit := (*exec.ExitError)(nil); err != nil && !errors.As(err, &exit) {
			t.Fatal(err) // no go command to run
		}
		data, _ := os.ReadFile(log)
		out := string(data)
		if err == nil || !strings.Contains(out, "FAIL\terrref/internal/needs") || strings.Contains(out, "(cached)") ||
			strings.Count(out, browserMessage) != 1 || strings.Count(out, postgresMessage) != 1 {
			t.Errorf("run %d: %v\n%s", i+1, err, out)
		}
	}
}
