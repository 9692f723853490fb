//go:build !windows

package preview

import (
	"context"
	"os"
	"time"
)

// watchParent returns a function that waits until the process that
// started this one (at the time of the call) ends, and says so; it
// returns nil when ctx ends first, or at once when there is no parent to
// follow (this process was started by init, or orphaned before it
// looked).
//
// An orphan is handed to init or a subreaper, so its parent's ID
// changes: that is polled, on every Unix alike. (Linux's
// PR_SET_PDEATHSIG would signal instead, but it fires when the thread
// that started the process ends, which in a Go parent such as go run may
// be any time.)
func watchParent() func(ctx context.Context) error {
	ppid := os.Getppid()
	return func(ctx context.Context) error {
		if ppid <= 1 {
			return nil
		}
		tick := time.NewTicker(parentPoll)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return nil
			case <-tick.C:
				if os.Getppid() != ppid {
					return &parentEndedError{ppid}
				}
			}
		}
	}
}
