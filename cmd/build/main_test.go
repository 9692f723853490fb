package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"errref/internal/benchsite"
)

// BenchmarkCommand times the build as a user runs it: the built command,
// a whole process, on sites of 1, 100 and 1,000 distinct pages, writing
// public/ and printing its summary. An in-process benchmark hid a command
// ten times slower than Hugo; this one cannot.
//
//	go test ./cmd/build -run '^$' -bench Command -benchtime 5x
//
// warm is a second run as a user makes it (the size cache filled);
// cold empties that cache before each run, as on a fresh machine.
func BenchmarkCommand(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "build")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for _, n := range []int{1, 100, 1000} {
		root := b.TempDir()
		if err := benchsite.Make(root, filepath.Join("..", ".."), n); err != nil {
			b.Fatal(err)
		}
		for _, cache := range []string{"warm", "cold"} {
			b.Run(fmt.Sprintf("pages=%d/cache=%s", n, cache), func(b *testing.B) {
				cacheDir := b.TempDir()
				run := func() {
					cmd := exec.Command(bin, "-root", root, "-out", filepath.Join(root, "public"))
					cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cacheDir)
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("%v\n%s", err, out)
					}
				}
				run() // the first build: public/ exists from here on, as for a user
				for b.Loop() {
					if cache == "cold" {
						b.StopTimer()
						os.RemoveAll(cacheDir)
						b.StartTimer()
					}
					run()
				}
			})
		}
	}
}
