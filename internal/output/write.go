package output

import (
	"cmp"
	"os"
	"path/filepath"
	"runtime"
)

// writeAll writes each named file into dir, whose folders exist, as many
// at a time as there are cores: a write is mostly the kernel's work, and
// one after another they kept one core busy and left the other idle.
func writeAll(dir string, names []string, files map[string][]byte) error {
	workers := min(runtime.GOMAXPROCS(0), len(names))
	next := make(chan string)
	errs := make(chan error, workers)
	for range workers {
		go func() {
			var first error
			for name := range next {
				if first == nil {
					first = os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), files[name], 0o644)
				}
			}
			errs <- first
		}()
	}
	for _, name := range names {
		next <- name
	}
	close(next)
	var err error
	for range workers {
		err = cmp.Or(err, <-errs)
	}
	return err
}
