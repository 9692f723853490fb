package preview

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestParentEnded runs this test binary as a parent that starts it again
// as a child and exits once the child watches it: the child sees its
// parent end, within a bounded wait, and names it. Meanwhile this
// process, whose parent (go test) runs on, waits until its context ends
// and reports nothing.
func TestParentEnded(t *testing.T) {
	switch os.Getenv("PREVIEW_PARENT_TEST") {
	case "parent":
		child := exec.Command(os.Args[0], "-test.run=^TestParentEnded$")
		child.Env = append(os.Environ(), "PREVIEW_PARENT_TEST=child")
		child.Stdout = os.Stdout // the test reads until the child too is done
		watching, err := child.StderrPipe()
		if err == nil {
			err = child.Start()
		}
		if err != nil {
			fmt.Println("start:", err)
			os.Exit(1)
		}
		bufio.NewReader(watching).ReadString('\n')
		fmt.Printf("parent %d\n", os.Getpid())
		os.Exit(0)
	case "child":
		ppid := os.Getppid()
		wait := watchParent(ppid)
		fmt.Fprintln(os.Stderr, "watching")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		fmt.Printf("child: %d ended: %v\n", ppid, wait(ctx))
		os.Exit(0)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // a few polls
	defer cancel()
	if watchParent(os.Getppid())(ctx) {
		t.Errorf("while go test runs, its parent ended")
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	parent := exec.Command(os.Args[0], "-test.run=^TestParentEnded$")
	parent.Env = append(os.Environ(), "PREVIEW_PARENT_TEST=parent")
	parent.Stdout = w
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	out := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(r) // until the parent and the child are done
		out <- string(b)
	}()
	if err := parent.Wait(); err != nil {
		t.Fatal(err)
	}
	var got string
	select {
	case got = <-out:
	case <-time.After(30 * time.Second):
		t.Fatal("the child never ended")
	}
	want := fmt.Sprintf("parent %d\nchild: %d ended: true\n", parent.Process.Pid, parent.Process.Pid)
	if got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}
