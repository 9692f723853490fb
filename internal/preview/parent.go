package preview

import (
	"fmt"
	"time"
)

// parentPoll is how often the preview looks whether the process that
// started it still runs, where it cannot be told.
const parentPoll = 200 * time.Millisecond

// parentEndedError says that the process that started the preview ended:
// go run killed by SIGTERM (it passes no signal on to the program it
// runs), an editor that quit. The preview then stops as on Ctrl-C, rather
// than hold its port with no one to stop it.
type parentEndedError struct{ pid int }

func (e *parentEndedError) Error() string {
	return fmt.Sprintf("the process that started the preview (PID %d) ended", e.pid)
}
