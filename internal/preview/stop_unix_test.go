//go:build unix

package preview

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAStopStartsNoQueuedBuild: Ctrl-C while a build runs and a save
// waits for the next one used to run that next build too, whole, after
// "preview stopped": the stop waited for two builds. A page that is a
// FIFO holds the first build until the test writes it.
func TestAStopStartsNoQueuedBuild(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "site", "testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	s, err := New(Options{Root: root, Out: filepath.Join(root, "public"), Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	watched := s.Watch(ctx)
	fifo := filepath.Join(root, "content", "slow.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // past the watcher's wait for quiet: the build reads the FIFO
	save(t, filepath.Join(root, "content", "404.md"), page404+"Saved while a build ran.\n")
	time.Sleep(200 * time.Millisecond) // the save waits for the next build
	before := strings.Count(log.String(), " pages (")
	cancel()
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // once the build has it open
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(fifo)
	f.Close()
	<-watched
	if n := strings.Count(log.String(), " pages (") + strings.Count(log.String(), "build failed") - before; n != 1 {
		t.Errorf("%d builds ended after the stop, want only the one under way:\n%s", n, log.String())
	}
}
