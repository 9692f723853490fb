package preview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAFolderRenamedWhileThePreviewRunsIsWatched: a writer renames a
// section (mv content/aa content/bb) while the preview runs; the rename is
// built, and a page saved in the renamed folder afterwards must be built
// too, as a cold build of the same sources would show it.
func TestAFolderRenamedWhileThePreviewRunsIsWatched(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	page := func(body string) string {
		return "+++\ntitle = \"A\"\ndescription = \"d\"\ncounter = false\n+++\n\n" + body + "\n"
	}
	waitFor := func(url, want string) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			if code, body, _ := get(t, srv.URL+url); code == 200 && strings.Contains(body, want) {
				return
			}
			select {
			case <-events:
			case <-time.After(100 * time.Millisecond):
			case <-deadline:
				t.Fatalf("%s does not show %q 5 s after the save: the preview shows something other than a cold build", url, want)
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "content", "aa"), 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // past the watcher's wait for quiet
	save(t, filepath.Join(root, "content", "aa", "x.md"), page("First text."))
	waitFor("/aa/x/", "First text.")
	if err := os.Rename(filepath.Join(root, "content", "aa"), filepath.Join(root, "content", "bb")); err != nil {
		t.Fatal(err)
	}
	waitFor("/bb/x/", "First text.")
	time.Sleep(200 * time.Millisecond)
	save(t, filepath.Join(root, "content", "bb", "x.md"), page("Second text."))
	waitFor("/bb/x/", "Second text.")
}
