package output

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestUpdateKeepsThePageAFailedWriteWouldCut: a page whose new bytes cannot
// all be written (here a file-size limit, as a full disk would) stays as it
// was, and no part of the new one is left. Go ignores SIGXFSZ, so the
// write fails with EFBIG.
func TestUpdateKeepsThePageAFailedWriteWouldCut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "public")
	prev := map[string][]byte{"index.html": []byte("the good page")}
	if err := Write(dir, prev); err != nil {
		t.Fatal(err)
	}
	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	limit := syscall.Rlimit{Cur: 4096, Max: was.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &limit); err != nil {
		t.Skipf("cannot limit file sizes: %v", err)
	}
	err := Update(dir, prev, map[string][]byte{"index.html": bytes.Repeat([]byte("x"), 64<<10)})
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	if err == nil {
		t.Fatal("a write cut short by the file-size limit passed")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(got) != "the good page" {
		t.Errorf("index.html holds %d bytes after a failed write, want the good page", len(got))
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".new-*")); len(m) > 0 {
		t.Errorf("left behind: %v", m)
	}
}
