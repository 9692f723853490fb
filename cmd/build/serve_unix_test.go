//go:build unix

package main

import (
	"bufio"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestStoppingGoRunStopsThePreview starts the preview as the README says,
// go run ./cmd/build -serve from the root of a copy of the repository, and
// stops it the ways a user, a process manager or an editor does: a signal
// to the PID of go run (what $! holds), or Ctrl-C, which the terminal
// sends to the whole process group. Each time the preview says it stopped
// and its port is free again. go run passes no signal on to the program
// it runs, so the preview must notice on its own that go run is gone.
func TestStoppingGoRunStopsThePreview(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: go run ./cmd/build -serve, stopped three ways; run without -short")
	}
	repo := userRepo(t)
	for _, tc := range []struct {
		name string
		stop func(pid int) error // pid is go run's, and its process group's
		// orphaned: the preview outlives go run and says why it stops
		orphaned bool
	}{
		{"SIGTERM to go run", func(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }, true},
		{"SIGKILL to go run", func(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }, true},
		{"Ctrl-C", func(pid int) error { return syscall.Kill(-pid, syscall.SIGINT) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("go", "run", "./cmd/build", "-serve", "-addr", "127.0.0.1:0")
			cmd.Dir = repo
			// A group of its own, as a terminal gives a command: Ctrl-C
			// goes to the group, and the cleanup can end a preview that
			// outlived go run.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout, cmd.Stderr = w, w
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			pid := cmd.Process.Pid
			t.Cleanup(func() {
				syscall.Kill(-pid, syscall.SIGKILL)
				cmd.Wait()
				r.Close()
			})
			out := readLines(r)
			addr := out.await(t, 2*time.Minute, func(line string) (string, bool) {
				rest, ok := strings.CutPrefix(line, "preview at http://")
				addr, _, _ := strings.Cut(rest, "/")
				return addr, ok
			})
			resp, err := http.Get("http://" + addr + "/")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET / = %d, want 200", resp.StatusCode)
			}

			if err := tc.stop(pid); err != nil {
				t.Fatal(err)
			}
			if !poll(15*time.Second, func() bool {
				ln, err := net.Listen("tcp", addr)
				if err == nil {
					ln.Close()
				}
				return err == nil
			}) {
				t.Fatalf("%s is still taken 15 s after the stop; the output:\n%s", addr, out)
			}
			why := "the process that started the preview (PID "
			out.await(t, 15*time.Second, func(line string) (string, bool) {
				if strings.HasPrefix(line, why) && !tc.orphaned {
					t.Errorf("the preview printed %q, though go run still ran", line)
				}
				return "", line == "preview stopped"
			})
			if said := strings.Contains(out.String(), why); tc.orphaned && !said {
				t.Errorf("the preview never said why it stopped; it printed:\n%s", out)
			}
		})
	}
}

// lines collects what a command prints, a line at a time, as it comes.
type lines struct {
	mu   sync.Mutex
	all  []string
	more chan struct{} // closed and replaced on each new line, and at the end
	done bool
}

func readLines(r *os.File) *lines {
	l := &lines{more: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			l.mu.Lock()
			l.all = append(l.all, sc.Text())
			close(l.more)
			l.more = make(chan struct{})
			l.mu.Unlock()
		}
		l.mu.Lock()
		l.done = true
		close(l.more)
		l.mu.Unlock()
	}()
	return l
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.all, "\n")
}

// await waits up to limit for a line that match accepts, and returns what
// match made of it.
func (l *lines) await(t *testing.T, limit time.Duration, match func(string) (string, bool)) string {
	t.Helper()
	deadline := time.After(limit)
	seen := 0
	for {
		l.mu.Lock()
		more, done, all := l.more, l.done, l.all
		l.mu.Unlock()
		for ; seen < len(all); seen++ {
			if v, ok := match(all[seen]); ok {
				return v
			}
		}
		if done {
			t.Fatalf("the command ended without the line awaited; it printed:\n%s", l)
		}
		select {
		case <-more:
		case <-deadline:
			t.Fatalf("no line awaited within %v; the command printed:\n%s", limit, l)
		}
	}
}

// poll reports whether cond holds within limit, trying it every 50 ms.
func poll(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}
