package preview

import (
	"os"
	"path/filepath"
	"strings"
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

// TestAnEditorsLockInTemplatesGoneRebuilds: Emacs keeps a lock beside a
// file with unsaved changes, a link named .#FILE to "user@host.pid:boot"
// that points nowhere. templates/.#page.html ends in .html, so the build
// reads it and fails; once Emacs saves and takes the lock away, the
// preview must build again and show the site, not the stale failure.
func TestAnEditorsLockInTemplatesGoneRebuilds(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	lock := filepath.Join(root, "templates", ".#page.html")
	if err := os.Symlink("user@host.4242:1700000000", lock); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	time.Sleep(200 * time.Millisecond) // past the watcher's wait for quiet
	save(t, filepath.Join(root, "content", "404.md"), page404+"Saved while the lock is there.\n")
	if e := next(t, events); !strings.HasPrefix(e, "failed: ") {
		t.Fatalf("event = %q, want the build's failure on the lock it read", e)
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-events:
		if e != "reload: \n" {
			t.Fatalf("event = %q after the lock went, want reload", e)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("5 s after the lock went the preview still shows the failure it caused: its removal built nothing")
	}
}
