//go:build !windows

package preview

import (
	"context"
	"os"
	"time"
)

// parentEnded waits until the process that started this one ends, and
// says so; it returns nil when ctx ends first, or at once when there is
// no parent to follow (this process was started by init, or orphaned
// before it looked).
//
// An orphan is handed to init or a subreaper, so its parent's ID
// changes: that is polled, on every Unix alike. (Linux's
// PR_SET_PDEATHSIG would signal instead, but it fires when the thread
// that started the process ends, which in a Go parent such as go run may
// be any time.)
func parentEnded(ctx context.Context) error {
	ppid := os.Getppid()
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
