package site

import (
	"os"
	"strings"
	"testing"
)

// TestAMessageRefusalNamesThePartNoQuoteHolds: a Python traceback's last
// line names the class with its module ("quiver.PoolClosed: pool is
// closed"); the page quotes the line that raises it. The refusal said the
// whole run "quiver.PoolClosed: pool is closed" is not made of the quotes
// and advised quoting the line that prints it, which the page does: it
// must name what no quote holds, "quiver.", so the writer knows to drop it
// (the box finds the line without it) or mark it.
func TestAMessageRefusalNamesThePartNoQuoteHolds(t *testing.T) {
	root := homeSite(t)
	page := errorPage("X", "messages = [\"quiver.PoolClosed: pool is closed\"]\n") +
		"\n```python cite=acme/quiver@v2.3.0:src/quiver/pool.py#121\nraise PoolClosed(\"pool is closed\")\n```\n"
	writeFile(t, root, "content/zz/x.md", page)
	_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err == nil {
		t.Fatal("the message was accepted")
	}
	if !strings.Contains(err.Error(), `"quiver."`) {
		t.Errorf("error %q does not name \"quiver.\", the only part no quote holds", err)
	}
}
