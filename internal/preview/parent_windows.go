package preview

import (
	"context"
	"os"
)

// watchParent returns a function that waits until the process ppid, which
// started this one, ends, and reports true; false when ctx ends first, or
// at once when the parent cannot be watched (it ended before this process
// looked).
//
// Windows gives an orphan no new parent, so its parent's ID never
// changes: this waits on a handle to the parent instead, opened at once.
// The wait cannot be cancelled, and is left to the process's end when
// ctx ends first.
func watchParent(ppid int) func(ctx context.Context) bool {
	p, err := os.FindProcess(ppid)
	return func(ctx context.Context) bool {
		if err != nil {
			return false
		}
		ended := make(chan error, 1)
		go func() {
			_, err := p.Wait()
			ended <- err
		}()
		select {
		case <-ctx.Done():
			return false
		case err := <-ended:
			return err == nil // a failed wait: the parent may still run
		}
	}
}
