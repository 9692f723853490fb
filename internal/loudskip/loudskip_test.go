package loudskip

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestTheLineIsSeenWithoutV runs go test on a package two of whose tests
// skip, as a user runs it (go test ./...: no -v, the output of a passing
// package dropped) and with -v: the line is there once either way.
func TestTheLineIsSeenWithoutV(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("without /proc the line goes to the terminal, which a test cannot read")
	}
	if testing.Short() {
		t.Skip("runs go test: not with -short")
	}
	const line = "./internal/loudskip/testdata/skipper: widget tests SKIPPED: 2 (no widget here): install a widget to run them\n"
	for _, args := range [][]string{{}, {"-v"}} {
		cmd := exec.Command("go", append(append([]string{"test", "-count=1"}, args...), "./testdata/skipper")...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go test %v: %v\n%s", args, err, out)
		}
		if n := strings.Count(string(out), line); n != 1 {
			t.Errorf("go test %v printed the line %d times, want once:\n%s", args, n, out)
		}
	}
}
