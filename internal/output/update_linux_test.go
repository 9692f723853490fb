package output

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestUpdateKeepsThePageAFailedWriteWouldCut: a page whose new bytes cannot
// all be written (here a file-size limit, as a full disk would) stays as it
// was, and no part of the new one is left. Go ignores SIGXFSZ, so the
// write fails with EFBIG. The limit binds a whole process, so the update
// runs in a child: in this one it would also cut the test's own log
// (go test's testlog.txt) and fail the run, not the test.
func TestUpdateKeepsThePageAFailedWriteWouldCut(t *testing.T) {
	prev := map[string][]byte{"index.html": []byte("the good page")}
	if dir := os.Getenv("OUTPUT_TEST_LIMITED_DIR"); dir != "" {
		var was syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 4096, Max: was.Max}); err != nil {
			t.Skipf("cannot limit file sizes: %v", err)
		}
		if err := Update(dir, prev, map[string][]byte{"index.html": bytes.Repeat([]byte("x"), 64<<10)}); err == nil {
			t.Fatal("a write cut short by the file-size limit passed")
		}
		return
	}
	dir := filepath.Join(t.TempDir(), "public")
	if err := Write(dir, prev); err != nil {
		t.Fatal(err)
	}
	child := exec.Command(os.Args[0], "-test.run=^TestUpdateKeepsThePageAFailedWriteWouldCut$", "-test.v")
	child.Env = append(os.Environ(), "OUTPUT_TEST_LIMITED_DIR="+dir)
	out, err := child.CombinedOutput()
	switch {
	case err != nil:
		t.Fatalf("the limited update: %v\n%s", err, out)
	case bytes.Contains(out, []byte("--- SKIP")):
		t.Skipf("the child could not limit file sizes:\n%s", out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(got) != "the good page" {
		t.Errorf("index.html holds %d bytes after a failed write, want the good page", len(got))
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".new-*")); len(m) > 0 {
		t.Errorf("left behind: %v", m)
	}
}
