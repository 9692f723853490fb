//go:build !windows

package preview

import (
	"context"
	"os"
	"time"
)

// parentPoll is how often the preview looks whether its parent still runs.
const parentPoll = 200 * time.Millisecond

// watchParent returns a function that waits until the process ppid, which
// started this one, ends, and reports true; false when ctx ends first, or
// at once when there is no parent to follow (this process was started by
// init, or orphaned before it looked).
//
// An orphan is handed to init or a subreaper, so its parent's ID
// changes: that is polled, on every Unix alike. (Linux's
// PR_SET_PDEATHSIG would signal instead, but it fires when the thread
// that started the process ends, which in a Go parent such as go run may
// be any time.)
func watchParent(ppid int) func(ctx context.Context) bool {
	return func(ctx context.Context) bool {
		if ppid <= 1 {
			return false
		}
		tick := time.NewTicker(parentPoll)
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
