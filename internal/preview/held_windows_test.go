package preview

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestANetlifyTomlHeldAMomentIsRead: on Windows a file another program
// holds open without sharing (an editor saving it) cannot be opened until
// it lets go. A save while netlify.toml was held failed the build with
// "Sharing violation", and the preview showed it until the next save.
// Only Windows (or .ci/wine/test) can fail it.
func TestANetlifyTomlHeldAMomentIsRead(t *testing.T) {
	root, srv, _ := start(t)
	events := stream(t, srv)
	p, _ := syscall.UTF16PtrFromString(filepath.Join(root, "netlify.toml"))
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ, 0, nil, syscall.OPEN_EXISTING, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(1500 * time.Millisecond); syscall.CloseHandle(h) }() // past the build, within 2 s
	save(t, filepath.Join(root, "content", "404.md"), page404+"Held.\n")
	if e := next(t, events); e != "reload: \n" {
		t.Fatalf("event = %q, want reload", e)
	}
}
