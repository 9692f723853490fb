package output

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestWriteSwapsInAFolderHeldAMoment: on Windows a folder another program
// holds open (an indexer or an antivirus reading the new site just
// written) cannot be renamed until it lets go. Renaming the old site aside
// was tried again, but putting the new one in its place was not: the
// build failed with "Sharing violation". Only Windows (or .ci/wine/test)
// can fail it.
func TestWriteSwapsInAFolderHeldAMoment(t *testing.T) {
	for _, existing := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "public")
		if existing {
			if err := Write(dir, map[string][]byte{"index.html": []byte("one")}); err != nil {
				t.Fatal(err)
			}
		}
		raced = func(dir string) {
			news, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".public.new-*"))
			for _, n := range news {
				p, _ := syscall.UTF16PtrFromString(n)
				// Shared for reading only, as a program that holds the folder does.
				h, err := syscall.CreateFile(p, syscall.GENERIC_READ, syscall.FILE_SHARE_READ, nil, syscall.OPEN_EXISTING, syscall.FILE_FLAG_BACKUP_SEMANTICS, 0)
				if err != nil {
					t.Fatal(err)
				}
				go func() { time.Sleep(300 * time.Millisecond); syscall.CloseHandle(h) }() // let go soon
			}
		}
		t.Cleanup(func() { raced = func(string) {} })
		if err := Write(dir, map[string][]byte{"index.html": []byte("two")}); err != nil {
			t.Fatalf("over an existing site %v: %v", existing, err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "index.html")); string(got) != "two" {
			t.Errorf("over an existing site %v: index.html = %q, %v; want two", existing, got, err)
		}
	}
}
