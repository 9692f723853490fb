package preview

import (
	"context"
	"os"
	"runtime"
	"time"
)

// watchParent returns a function that reports true once the parent ppid
// ends; false when ctx ends first, or at once with no parent to follow.
func watchParent(ppid int) func(ctx context.Context) bool {
	if runtime.GOOS == "windows" {
		// Windows gives an orphan no new parent, so this waits on a handle
		// to the parent, opened at once. The wait cannot be cancelled: when
		// ctx ends first, it is left to the process's end.
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
	// An orphan is handed to init or a subreaper: its parent's ID, polled,
	// changes. (Linux's PR_SET_PDEATHSIG fires when the thread that started
	// the process ends, which in a Go parent such as go run may be any time.)
	return func(ctx context.Context) bool {
		if ppid <= 1 {
			return false
		}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return false
			case <-tick.C:
				if os.Getppid() != ppid {
					return true
				}
			}
		}
	}
}
