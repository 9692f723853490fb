package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestHTMLFileStaysWholeOnAFullDisk: -html FILE over the last report, on a
// disk that takes only part of the new page (here a file-size limit, as a
// full disk would; Go ignores SIGXFSZ, so the write fails with EFBIG), fails
// and leaves the last report whole, not a cut page that opens as a report.
func TestHTMLFileStaysWholeOnAFullDisk(t *testing.T) {
	bin, db, _ := command(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "r.html")
	if _, errOut, err := run(t, bin, "-db", db, "-html", file); err != nil {
		t.Fatalf("report -html FILE: %v\n%s", err, errOut)
	}
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// 256 blocks (128 KiB in dash's 512-byte blocks, 256 in bash's) hold
	// SQLite's 32 KiB -shm file, not three years' page.
	cmd := exec.Command("/bin/sh", "-c", `ulimit -f 256 && exec "$@"`, "sh", bin, "-db", db, "-from", "2024-01-01", "-html", file)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("a report the disk could not hold was written:\n%s", out)
	}
	if now, _ := os.ReadFile(file); !bytes.Equal(now, good) {
		t.Errorf("r.html holds %d bytes after a failed write, want the last report's %d:\n%s", len(now), len(good), out)
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Errorf("left in the folder: %v", names)
	}
}
