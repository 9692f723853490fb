package preview

import (
	"context"
	"os"
)

// watchParent returns a function that waits until the process that
// started this one (at the time of the call) ends, and says so; it
// returns nil when ctx ends first, or at once when the parent cannot be
// watched (it ended before this process looked).
//
// Windows gives an orphan no new parent, so its parent's ID never
// changes: this waits on a handle to the parent instead, opened at once.
// The wait cannot be cancelled, and is left to the process's end when
// ctx ends first.
func watchParent() func(ctx context.Context) error {
	ppid := os.Getppid()
	p, err := os.FindProcess(ppid)
	return func(ctx context.Context) error {
		if err != nil {
			return nil
		}
		ended := make(chan error, 1)
		go func() {
			_, err := p.Wait()
			ended <- err
		}()
		select {
		case <-ctx.Done():
			return nil
		case err := <-ended:
			if err != nil {
				return nil // the wait failed: the parent may still run
			}
			return &parentEndedError{ppid}
		}
	}
}
