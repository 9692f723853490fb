package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"errref/internal/event"
)

// keepOne keeps one copy-sketch click at sec seconds after at in j.
func keepOne(t *testing.T, j *Journal, sec int) {
	t.Helper()
	it := Item{Event: event.Event{Name: "copy-sketch"}, At: at.Add(time.Duration(sec) * time.Second)}
	if _, err := j.Keep(context.Background(), []Item{it}); err != nil {
		t.Fatal(err)
	}
}

// journalTotal is how many events the journal at path holds, as the
// preview counts them and as the report takes them into a new store.
func journalTotal(t *testing.T, path string) (counted, taken int) {
	t.Helper()
	cs, err := JournalCounts(path, "2026-01-01", "2026-12-31")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		counted += c.N
	}
	s := open(t, filepath.Join(t.TempDir(), "events.db"))
	res, err := s.TakeJournal(context.Background(), path)
	if err != nil || len(res.Refused) > 0 {
		t.Fatalf("taking %s: refused %v, %v", path, res.Refused, err)
	}
	return counted, res.Added
}

// TestJournalsOfOneFolderKeepEveryEvent: two previews of one folder (two
// Journals of one file, each with a file of its own, as two processes
// have) write batches at once; every event either acknowledged is in the
// file, each line whole.
func TestJournalsOfOneFolderKeepEveryEvent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	const writers, batches, perBatch = 4, 100, 7
	var wg sync.WaitGroup
	for w := range writers {
		j, _, err := OpenJournal(path)
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		wg.Go(func() {
			for b := range batches {
				items := make([]Item, perBatch)
				for i := range items {
					sec := (w*batches+b)*perBatch + i
					items[i] = Item{Event: event.Event{Name: "copy-sketch"}, At: at.Add(time.Duration(sec) * time.Second)}
				}
				if _, err := j.Keep(context.Background(), items); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	counted, taken := journalTotal(t, path)
	if want := writers * batches * perBatch; counted != want || taken != want {
		t.Errorf("the journal counts %d and the report takes %d of %d events acknowledged", counted, taken, want)
	}
}

// TestJournalEmptiedOrReplacedUnderAWriter: the journal emptied,
// replaced by rename or removed while a preview writes to it; the next
// event goes to the file at the path, whole, after no hole.
func TestJournalEmptiedOrReplacedUnderAWriter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(path string) error
	}{
		{": > events.jsonl", func(path string) error { return os.Truncate(path, 0) }},
		{"replaced by rename", func(path string) error {
			tmp := path + ".new"
			if err := os.WriteFile(tmp, nil, 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, path)
		}},
		{"removed", os.Remove},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if runtime.GOOS == "windows" && tc.name != ": > events.jsonl" {
				t.Skip("Windows neither renames over nor removes a file another handle holds open")
			}
			path := filepath.Join(t.TempDir(), "events.jsonl")
			j, _, err := OpenJournal(path)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			for sec := range 20 {
				keepOne(t, j, sec)
			}
			if err := tc.change(path); err != nil {
				t.Fatal(err)
			}
			keepOne(t, j, 100)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if nul := strings.Count(string(b), "\x00"); nul > 0 || strings.Count(string(b), "\n") != 1 {
				t.Errorf("the journal after the change holds %d bytes, %d of them NUL; want the one event after it", len(b), nul)
			}
			if counted, taken := journalTotal(t, path); counted != 1 || taken != 1 {
				t.Errorf("counted %d, taken %d; want the one event written after the change", counted, taken)
			}
		})
	}
}

// TestJournalReaderCopesWithNULRunsAndShrinking: a run of NUL bytes in
// front of a line (what a writer at a stale offset leaves in a file
// emptied under it) hides no event, and the report takes a journal that
// was emptied and written again since it last read it.
func TestJournalReaderCopesWithNULRunsAndShrinking(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	line := func(sec int) string {
		return string(event.Event{Name: "copy-sketch"}.NotStoredLine(at.Add(time.Duration(sec) * time.Second)))
	}
	os.WriteFile(path, []byte(strings.Repeat("\x00", 2600)+line(1)+line(2)), 0o644)
	if counted, taken := journalTotal(t, path); counted != 2 || taken != 2 {
		t.Errorf("after NUL bytes: counted %d, taken %d; want 2", counted, taken)
	}

	s := open(t, filepath.Join(t.TempDir(), "events.db"))
	ctx := context.Background()
	for i, content := range []string{
		line(1) + line(2) + line(3),
		"",                                    // emptied
		line(4),                               // written again, shorter than before
		line(4) + line(5) + line(6) + line(7), // and longer
	} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := s.TakeJournal(ctx, path); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if n, _ := s.Total(ctx); n != 7 {
		t.Errorf("%d events taken, want 7", n)
	}
}

// TestThePreviewsCountLeavesALastLineCutShort: a preview killed mid-write
// (or on a full disk without the lock) leaves a last line cut, never
// acknowledged; the other preview of the folder served its funnel page as
// an error saying to delete it, where the report leaves it untaken and the
// preview's next event removes it. The page counts the whole lines.
func TestThePreviewsCountLeavesALastLineCutShort(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	line := func(sec int) string {
		return string(event.Event{Name: "copy-sketch"}.NotStoredLine(at.Add(time.Duration(sec) * time.Second)))
	}
	os.WriteFile(path, []byte(line(1)+line(2)+line(3)[:20]), 0o644)
	if counted, taken := journalTotal(t, path); counted != 2 || taken != 2 {
		t.Errorf("counted %d, taken %d; want the 2 whole lines", counted, taken)
	}
}

// TestJournalSavedByAWindowsEditor: a journal saved by Notepad or
// PowerShell's Set-Content (CRLF, a byte order mark in front) holds the
// same events: its first line was refused, and the report's advice was to
// delete that good event.
func TestJournalSavedByAWindowsEditor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	var lines []string
	for sec := range 3 {
		lines = append(lines, strings.TrimSuffix(string(event.Event{Name: "copy-sketch"}.NotStoredLine(at.Add(time.Duration(sec)*time.Second))), "\n"))
	}
	os.WriteFile(path, []byte("\uFEFF"+strings.Join(lines, "\r\n")+"\r\n"), 0o644)
	if counted, taken := journalTotal(t, path); counted != 3 || taken != 3 {
		t.Errorf("counted %d, taken %d; want 3", counted, taken)
	}
}

// TestJournalSavedWithoutItsLastLineBreak: an editor saves the journal
// without its last line break (Notepad once its empty last line is
// deleted, as after deleting a refused line): the last line is a whole
// event, which the report left untaken and the next preview deleted as a
// line a crash cut short.
func TestJournalSavedWithoutItsLastLineBreak(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	var lines []string
	for sec := range 3 {
		lines = append(lines, strings.TrimSuffix(string(event.Event{Name: "copy-sketch"}.NotStoredLine(at.Add(time.Duration(sec)*time.Second))), "\n"))
	}
	os.WriteFile(path, []byte(strings.Join(lines, "\r\n")), 0o644)
	if counted, taken := journalTotal(t, path); counted != 3 || taken != 3 {
		t.Errorf("before the preview: counted %d, taken %d; want 3", counted, taken)
	}
	j, fixed, err := OpenJournal(path)
	if err != nil || fixed {
		t.Fatalf("OpenJournal: fixed %v, %v; want the last line kept", fixed, err)
	}
	keepOne(t, j, 3)
	j.Close()
	if counted, taken := journalTotal(t, path); counted != 4 || taken != 4 {
		t.Errorf("after the preview kept one more: counted %d, taken %d; want 4", counted, taken)
	}
}

// TestJournalConcurrentWithEmptying: two writers take turns, the file
// emptied in the middle: nothing written after the emptying is lost.
func TestJournalConcurrentWithEmptying(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	a, _, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, _, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for sec := range 10 {
		keepOne(t, a, sec)
		keepOne(t, b, 1000+sec)
	}
	os.Truncate(path, 0)
	for sec := range 10 {
		keepOne(t, b, 2000+sec)
		keepOne(t, a, 3000+sec)
	}
	if counted, taken := journalTotal(t, path); counted != 20 || taken != 20 {
		t.Errorf("counted %d, taken %d; want the 20 events written after emptying", counted, taken)
	}
}

// TestThePreviewsAdviceForABadLineUnblocksTheReport: the preview counts
// the journal itself; a line it cannot read is named with the command
// that removes it, after which the preview counts and the report takes
// the rest (-import would skip the line but leave it in the journal).
func TestThePreviewsAdviceForABadLineUnblocksTheReport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.jsonl")
	line := string(event.Event{Name: "copy-sketch"}.NotStoredLine(at))
	os.WriteFile(path, []byte(line+`{"ts":"2026-03-02T10:00:00Z","stored":false,"name":"copy-sketch","ip":"192.0.2.1"}`+"\n"+line), 0o644)
	_, err := JournalCounts(path, "2026-01-01", "2026-12-31")
	want := RemoveLines(path, []int{2})
	if err == nil || !strings.Contains(err.Error(), path+":2: ") || !strings.Contains(err.Error(), want) {
		t.Fatalf("JournalCounts: %v; want line 2 named and %s", err, want)
	}
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("no sed to run the advice with")
	}
	if out, err := exec.Command("sh", "-c", want).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", want, err, out)
	}
	if counted, taken := journalTotal(t, path); counted != 2 || taken != 1 {
		t.Errorf("after %s: counted %d, taken %d; want 2 and 1 (two lines, one key)", want, counted, taken)
	}
}

func TestRemoveLinesQuotesThePath(t *testing.T) {
	for _, tc := range []struct {
		path  string
		lines []int
		want  string
	}{
		{"events.jsonl", []int{3}, `sed -i.bak '3d' events.jsonl`},
		{"/site/events.jsonl", []int{3, 7}, `sed -i.bak '3d;7d' /site/events.jsonl`},
		{"/my site/it's.jsonl", []int{1}, `sed -i.bak '1d' '/my site/it'\''s.jsonl'`},
		{"my site/events.jsonl", []int{2}, `sed -i.bak '2d' 'my site/events.jsonl'`},
		{"$HOME/events.jsonl", []int{2}, `sed -i.bak '2d' '$HOME/events.jsonl'`},
	} {
		if got := removeLines("linux", tc.path, tc.lines); got != tc.want {
			t.Errorf("RemoveLines(%q, %v) = %s, want %s", tc.path, tc.lines, got, tc.want)
		}
	}
}

// TestRemoveLinesOnWindows: cmd.exe and PowerShell have no sed, so Windows
// gets the same in words, with the path as the writer's editor takes it.
func TestRemoveLinesOnWindows(t *testing.T) {
	for _, tc := range []struct {
		path  string
		lines []int
		want  string
	}{
		{"events.jsonl", []int{3}, `in an editor, delete line 3 of events.jsonl`},
		{`C:\my site\events.jsonl`, []int{3, 7}, `in an editor, delete lines 3, 7 of C:\my site\events.jsonl`},
	} {
		if got := removeLines("windows", tc.path, tc.lines); got != tc.want {
			t.Errorf("removeLines(windows, %q, %v) = %s, want %s", tc.path, tc.lines, got, tc.want)
		}
	}
}

// TestAJournalHoldsNothingButEvents: a line of the journal that holds no
// event (the preview's terminal line of one, a log's line, an event
// marked stored) is refused at its line, by the preview's count and the
// report's take alike, where a function's log would skip it.
func TestAJournalHoldsNothingButEvents(t *testing.T) {
	e := event.Event{Name: "copy-sketch"}
	for _, stray := range []string{
		e.Line(at),
		`INIT_START Runtime Version: provided:al2023`,
		`{"ts":"2026-03-02T10:00:01Z","stored":true,"name":"copy-sketch"}`,
	} {
		path := filepath.Join(t.TempDir(), "events.jsonl")
		os.WriteFile(path, []byte(string(e.NotStoredLine(at))+stray+"\n"+string(e.NotStoredLine(at.Add(time.Second)))), 0o644)
		if _, err := JournalCounts(path, "2026-01-01", "2026-12-31"); err == nil || !strings.Contains(err.Error(), path+":2: not an event as the preview writes it") {
			t.Errorf("%s: JournalCounts: %v; want line 2 refused", stray, err)
		}
		res, err := open(t, filepath.Join(t.TempDir(), "events.db")).TakeJournal(context.Background(), path)
		if err != nil || len(res.Refused) != 1 || res.Refused[0].Line != 2 || !errors.Is(res.Refused[0], errNotJournal) {
			t.Errorf("%s: TakeJournal: refused %v, %v; want line 2", stray, res.Refused, err)
		}
		s := open(t, filepath.Join(t.TempDir(), "events.db"))
		if res, err := s.ImportLog(context.Background(), strings.NewReader(stray)); err != nil || len(res.Refused) > 0 || res.Skipped+res.Stored != 1 {
			t.Errorf("%s: ImportLog: %s, %v; want the line skipped", stray, importResult(res), err)
		}
	}
}

// TestReadersWaitForABatchToSettle: a batch whose write failed part-way (a
// full disk) may have reached the file as whole lines before the writer
// cuts it off, under its lock; the preview answered 503 for it. Read in
// that moment, the page and the report counted events never acknowledged.
// They wait for the lock, and count only the batches that were.
func TestReadersWaitForABatchToSettle(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		t.Skip("the lock is tried on Linux, macOS and Windows")
	}
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, _, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	keepOne(t, j, 1)
	size, _ := os.Stat(path)
	// A writer mid-batch: the lock held, a failed batch's lines in the file.
	unlock, locked := lockFile(j.f)
	if !locked {
		t.Skip("this file system takes no locks")
	}
	line := event.Event{Name: "copy-sketch"}.NotStoredLine(at.Add(2 * time.Second))
	if _, err := j.f.Write(append(line, line...)); err != nil {
		t.Fatal(err)
	}
	// The preview's page and the report, reading meanwhile.
	st := open(t, filepath.Join(t.TempDir(), "events.db"))
	type result struct {
		counted, taken int
		err            error
	}
	read := make(chan result, 1)
	go func() {
		cs, err := JournalCounts(path, "2026-01-01", "2026-12-31")
		res, terr := st.TakeJournal(context.Background(), path)
		r := result{taken: res.Added, err: errors.Join(err, terr)}
		for _, c := range cs {
			r.counted += c.N
		}
		read <- r
	}()
	select {
	case r := <-read:
		unlock()
		t.Fatalf("counted %d and took %d events while a writer held the journal mid-batch (%v)", r.counted, r.taken, r.err)
	case <-time.After(300 * time.Millisecond):
	}
	// The write failed: the writer cuts its batch off, then lets go.
	if err := j.truncate(size.Size()); err != nil {
		t.Fatal(err)
	}
	unlock()
	if r := <-read; r.err != nil || r.counted != 1 || r.taken != 1 {
		t.Errorf("counted %d and took %d events (%v), want the 1 acknowledged", r.counted, r.taken, r.err)
	}
}

// TestNotStoredNoteCountsEachLine counts the events waiting in
// not-stored.jsonl, the last one without its line break too, and as -import
// does: a blank line a Windows editor leaves (CRLF, a byte order mark) is none.
func TestNotStoredNoteCountsEachLine(t *testing.T) {
	for _, tc := range []struct {
		file string
		n    string // "" for no note
	}{
		{"", ""},
		{"{}\n", "holds 1 event "},
		{"{}", "holds 1 event "},
		{"{}\n{}", "holds 2 events"},
		{"{}\n{}\n", "holds 2 events"},
		{"\uFEFF{}\r\n\r\n{}\r\n\r\n", "holds 2 events"},
		{"\uFEFF", ""},
	} {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, NotStored), []byte(tc.file), 0o644); err != nil {
			t.Fatal(err)
		}
		note, err := NotStoredNote(root)
		if err != nil || (tc.n == "") != (note == "") || !strings.Contains(note, tc.n) {
			t.Errorf("%q: %q, %v; want %q", tc.file, note, err, tc.n)
		}
	}
}
