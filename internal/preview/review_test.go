package preview

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestAHiddenFolderMadeInStaticIsWatched: the build publishes static/'s
// hidden folders (static/.well-known/security.txt is served at
// /.well-known/security.txt), so a folder made there while the preview runs
// must be watched like any other: the files saved in it are built.
func TestAHiddenFolderMadeInStaticIsWatched(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	dir := filepath.Join(root, "static", ".well-known")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // past the watcher's wait for quiet
	save(t, filepath.Join(dir, "security.txt"), "Contact: mailto:security@example.com\n")
	out := filepath.Join(root, "public", ".well-known", "security.txt")
	deadline := time.After(5 * time.Second)
	for {
		if _, err := os.Stat(out); err == nil {
			return
		}
		select {
		case <-events:
		case <-deadline:
			t.Fatal("static/.well-known/security.txt, saved in a folder made while the preview ran, is not in public/ 5 s later: the watcher never watched the new folder")
		}
	}
}
