package site

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestBuildReadsAFileHeldAMoment: on Windows a file another program holds
// open without sharing (an editor saving it, a sync client) cannot be
// opened until it lets go. The build failed with "Sharing violation", and
// the preview showed that failure until the next save. Only Windows (or
// .ci/wine/test) can fail it.
func TestBuildReadsAFileHeldAMoment(t *testing.T) {
	for _, name := range []string{"site.toml", "templates/page.html", "static/style.css", "content/pay.md"} {
		root := fixtureSite(t)
		p, _ := syscall.UTF16PtrFromString(filepath.Join(root, filepath.FromSlash(name)))
		h, err := syscall.CreateFile(p, syscall.GENERIC_READ, 0, nil, syscall.OPEN_EXISTING, syscall.FILE_ATTRIBUTE_NORMAL, 0)
		if err != nil {
			t.Fatal(err)
		}
		go func() { time.Sleep(300 * time.Millisecond); syscall.CloseHandle(h) }() // let go soon
		if _, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv}); err != nil {
			t.Errorf("%s held a moment: %v", name, err)
		}
	}
}
