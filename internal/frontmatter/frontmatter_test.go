package frontmatter

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	no := false
	for _, tc := range []struct {
		name     string
		src      string
		want     Meta
		body     string
		bodyLine int // the line of the file the body starts on
		counter  bool
	}{
		{
			name:     "the required keys",
			src:      "+++\ntitle = \"T\"\ndescription = \"D\"\n+++\n\nHello.\n",
			want:     Meta{Title: "T", Description: "D", URLLine: 1},
			body:     "\nHello.\n",
			bodyLine: 5,
			counter:  true,
		},
		{
			name: "every key",
			src: "+++\ntitle = \"T\"\ndescription = \"D\"\ndate = 2026-10-07\nupdated = 2026-10-08T10:00:00Z\n" +
				"url = \"/pay/\"\ncounter = false\nnoindex = true\n+++\nBody.\n",
			want: Meta{
				Title: "T", Description: "D",
				Date:    time.Date(2026, 10, 7, 0, 0, 0, 0, time.UTC),
				Updated: time.Date(2026, 10, 8, 10, 0, 0, 0, time.UTC),
				URL:     "/pay/", URLLine: 6, Counter: &no, NoIndex: true,
			},
			body:     "Body.\n",
			bodyLine: 10,
			counter:  false,
		},
		{
			// Windows line endings: the delimiters still match, and the
			// body keeps its bytes.
			name:     "CRLF",
			src:      "+++\r\ntitle = \"T\"\r\ndescription = \"D\"\r\n+++\r\nBody.\r\n",
			want:     Meta{Title: "T", Description: "D", URLLine: 1},
			body:     "Body.\r\n",
			bodyLine: 5,
			counter:  true,
		},
		{
			// Some Windows editors write a byte order mark; it is not
			// part of the first line.
			name:     "byte order mark",
			src:      "\uFEFF+++\ntitle = \"T\"\ndescription = \"D\"\n+++\nBody.\n",
			want:     Meta{Title: "T", Description: "D", URLLine: 1},
			body:     "Body.\n",
			bodyLine: 5,
			counter:  true,
		},
		{
			name:     "no body",
			src:      "+++\ntitle = \"T\"\ndescription = \"D\"\n+++",
			want:     Meta{Title: "T", Description: "D", URLLine: 1},
			body:     "",
			bodyLine: 5,
			counter:  true,
		},
		{
			// url's line is found through white space, for the errors
			// the site reports at it.
			name:     "url indented, after a blank line",
			src:      "+++\ntitle = \"T\"\ndescription = \"D\"\n\n  url   =  \"/a_b/c-d.e~f/\"\n+++\n",
			want:     Meta{Title: "T", Description: "D", URL: "/a_b/c-d.e~f/", URLLine: 5},
			body:     "",
			bodyLine: 7,
			counter:  true,
		},
		{
			name:     "a +++ in the body is the body's",
			src:      "+++\ntitle = \"T\"\ndescription = \"D\"\n+++\na\n+++\nb\n",
			want:     Meta{Title: "T", Description: "D", URLLine: 1},
			body:     "a\n+++\nb\n",
			bodyLine: 5,
			counter:  true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			meta, body, line, err := Parse("p.md", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if !metaEqual(meta, tc.want) {
				t.Errorf("meta = %+v\nwant   %+v", meta, tc.want)
			}
			if string(body) != tc.body {
				t.Errorf("body = %q, want %q", body, tc.body)
			}
			if line != tc.bodyLine {
				t.Errorf("body line = %d, want %d", line, tc.bodyLine)
			}
			if meta.CounterOn() != tc.counter {
				t.Errorf("CounterOn() = %v, want %v", meta.CounterOn(), tc.counter)
			}
		})
	}
}

// metaEqual compares two Metas, Counter by the value it points to.
func metaEqual(a, b Meta) bool {
	ac, bc := a.Counter, b.Counter
	a.Counter, b.Counter = nil, nil
	if (ac == nil) != (bc == nil) || ac != nil && *ac != *bc {
		return false
	}
	return a.Title == b.Title && a.Description == b.Description && a.Date.Equal(b.Date) &&
		a.Updated.Equal(b.Updated) && a.URL == b.URL && a.NoIndex == b.NoIndex && a.URLLine == b.URLLine
}

// TestParseErrors: each refusal names the file and the line to fix, and
// says what is wrong in words an author can act on.
func TestParseErrors(t *testing.T) {
	const keys = "title = \"T\"\ndescription = \"D\"\n" // lines 2 and 3
	for _, tc := range []struct {
		name  string
		src   string
		at    string   // the error's start: file:line
		words []string // in the error
	}{
		{"empty file", "", "p.md:1:", []string{"no front matter", `"+++"`}},
		{"no front matter", "# Title\n\nText.\n", "p.md:1:", []string{"no front matter"}},
		// A space after +++ is not seen on the screen: the error shows it.
		{"a space after the opening +++", "+++ \n" + keys + "+++\n", "p.md:1:", []string{"no front matter", `the first line is "+++ "`}},
		{"a space after the closing +++", "+++\n" + keys + "+++ \n", "p.md:1:", []string{"front matter is not closed", `add a line "+++", with nothing after it,`}},
		{"not closed", "+++\n" + keys + "\nText.\n", "p.md:1:", []string{"front matter is not closed", `add a line "+++"`}},
		{"not TOML", "+++\n" + keys + "noindex = = true\n+++\n", "p.md:4:", []string{"front matter is not valid TOML"}},
		{"not a date", "+++\n" + keys + "date = \"yesterday\"\n+++\n", "p.md:4:", []string{"not valid TOML", `"yesterday"`}},
		// The two slips a writer makes most: text without quotes, and a day without its 0.
		{"a title without quotes", "+++\ntitle = RuntimeError: x\n+++\n", "p.md:2:", []string{`expected value but found "RuntimeError"`, "write text in double quotes"}},
		// counter, noindex and older_versions take true or false, which quotes would make text.
		{"a list without brackets", "+++\n" + keys + "messages = Foo\n+++\n", "p.md:4:", []string{`expected value but found "Foo"`, `write a list of text, such as messages = ["…"]`}},
		{"a date in words", "+++\n" + keys + "updated = soon\n+++\n", "p.md:4:", []string{`expected value but found "soon"`, "write a date as year-month-day, such as updated = 2026-12-05"}},
		{"a yes without true", "+++\n" + keys + "counter = False\n+++\n", "p.md:4:", []string{`expected value but found "False"`, "write true or false"}},
		{"a date without a 0", "+++\n" + keys + "updated = 2026-12-3\n+++\n", "p.md:4:", []string{`invalid datetime: "2026-12-3"`, "write a date as year-month-day, such as updated = 2026-12-05"}},
		// Dates as other countries and words write them, which toml reads as numbers, or as a number and then text.
		{"a date with slashes", "+++\n" + keys + "updated = 2026/12/05\n+++\n", "p.md:4:", []string{"write a date as year-month-day, such as updated = 2026-12-05"}},
		{"a date day first", "+++\n" + keys + "date = 05/12/2026\n+++\n", "p.md:4:", []string{"write a date as year-month-day, such as date = 2026-12-05"}},
		{"a date with dots", "+++\n" + keys + "updated = 05.12.2026\n+++\n", "p.md:4:", []string{"write a date as year-month-day, such as updated = 2026-12-05"}},
		{"a day and a month in words", "+++\n" + keys + "updated = 5 December 2026\n+++\n", "p.md:4:", []string{"write a date as year-month-day, such as updated = 2026-12-05"}},
		{"a value of the wrong type", "+++\ntitle = 1\ndescription = \"D\"\n+++\n", "p.md:2:", []string{"title is a number, but it takes a string in quotes"}},
		// toml names the key, not its line: the error names the key's line.
		{"a string for a list", "+++\n" + keys + "\ntags = \"json\"\n+++\n", "p.md:5:", []string{`tags is a string in quotes, but it takes a list, such as ["a", "b"]`}},
		{"a quoted key", "+++\n" + keys + "\n\"library\" = 3\n+++\n", "p.md:5:", []string{"library is a number, but it takes a string in quotes"}},
		{"a quoted false", "+++\n" + keys + "counter = \"false\"\n+++\n", "p.md:4:", []string{"counter is a string in quotes, but it takes true or false"}},
		{"a list in a list", "+++\n" + keys + "tags = [[\"a\"]]\n+++\n", "p.md:4:", []string{"an item of tags is a list, but each takes a string in quotes"}},
		{"a number in a list", "+++\n" + keys + "related = [\"/a/\", 1]\n+++\n", "p.md:4:", []string{"an item of related is a number, but each takes a string in quotes"}},
		{"a table for a list", "+++\n" + keys + "[tags]\nx = 1\n+++\n", "p.md:4:", []string{`tags is a table, but it takes a list, such as ["a", "b"]`}},
		{"a key in single quotes", "+++\n" + keys + "'url' = \"/a?b/\"\n+++\n", "p.md:4:", []string{`url "/a?b/" must be a path`}},
		{"a quoted date", "+++\n" + keys + "updated = \"2026-12-05\"\n+++\n", "p.md:4:", []string{"write a date without quotes, such as updated = 2026-12-05"}},
		// Told of updated, a writer whose quoted key is date may add an updated line.
		{"a quoted date for date", "+++\n" + keys + "date = \"2026-11-03\"\n+++\n", "p.md:4:", []string{"write a date without quotes, such as date = 2026-12-05"}},
		// A TOML local time decodes as that time on 0000-01-01, which the
		// page would show as its date.
		{"a time of day for a date", "+++\n" + keys + "updated = 07:32:00\n+++\n", "p.md:4:", []string{"updated is a time of day", "such as updated = 2026-12-05"}},
		{"a time of day for date", "+++\n" + keys + "\ndate = 23:59:59.5\n+++\n", "p.md:5:", []string{"date is a time of day", "such as date = 2026-12-05"}},
		// A typo in a year made a page published after its last update.
		{"a date after updated", "+++\n" + keys + "updated = 2026-12-03\ndate = 2027-01-05T08:00:00Z\n+++\n", "p.md:5:", []string{"date 2027-01-05 is after updated 2026-12-03", "the day the page was first published"}},
		{"unknown key", "+++\n" + keys + "noindx = true\n+++\n", "p.md:4:", []string{`unknown front-matter key "noindx"`, "the keys are title, description, date, updated, url, counter, noindex, history, older_versions"}},
		// toml matches a key to its field whatever the case: Title would
		// set the title, over title's.
		{"a key in another case", "+++\n" + keys + "Title = \"Other\"\n+++\n", "p.md:4:", []string{`unknown front-matter key "Title"`, "the keys are title, description"}},
		{"missing description", "+++\ntitle = \"T\"\nnoindex = true\n+++\n", "p.md:4:", []string{`lacks the required key "description"`, "required: title, description"}},
		{"missing title", "+++\ndescription = \"D\"\n+++\n", "p.md:3:", []string{`lacks the required key "title"`}},
		{"empty title", "+++\ndescription = \"D\"\ntitle = \"  \"\n+++\n", "p.md:3:", []string{"title and description must not be empty"}},
		{"url with a query", "+++\n" + keys + "url = \"/a?b/\"\n+++\n", "p.md:4:", []string{`url "/a?b/" must be a path`, `"/pay/"`}},
		{"url with an escaped dot-dot", "+++\n" + keys + "url = \"/%2e%2e/\"\n+++\n", "p.md:4:", []string{`url "/%2e%2e/" must be a path`}},
		{"url with markup", "+++\n" + keys + "counter = false\nurl = \"/</loc><script>/\"\n+++\n", "p.md:5:", []string{`url "/</loc><script>/" must be a path`}},
		{"url without its last slash", "+++\n" + keys + "url = \"/pay\"\n+++\n", "p.md:4:", []string{"must be a path that starts and ends with /"}},
		{"url that is relative", "+++\n" + keys + "url = \"pay/\"\n+++\n", "p.md:4:", []string{"must be a path"}},
		{"url with a hidden segment", "+++\n" + keys + "url = \"/.git/\"\n+++\n", "p.md:4:", []string{"must be a path"}},
		{"url with a segment ending in a dot", "+++\n" + keys + "url = \"/pay./\"\n+++\n", "p.md:4:", []string{`url "/pay./" must be a path`, "no dot last, which Windows drops"}},
		{"url with a backslash", "+++\n" + keys + "url = '/a\\b/'\n+++\n", "p.md:4:", []string{"must be a path"}},
		{"not UTF-8", "+++\n" + keys + "+++\n\nCaf\xe9\n", "p.md:6:", []string{"not UTF-8 at byte 42", "save the file as UTF-8"}},
		// An empty tag would relate the page to every page that has one.
		{"an empty tag", "+++\n" + keys + "tags = [\"network\", \" \"]\n+++\n", "p.md:4:", []string{`tags holds an empty tag`}},
		{"history that names no release", "+++\n" + keys + "history = [\"acme/lib@v1.0.0\", \"v1.6.0\"]\n+++\n", "p.md:4:", []string{`history "v1.6.0"`, "OWNER/REPO@VERSION"}},
		{"not UTF-8 in the front matter", "+++\ntitle = \"Caf\xe9\"\n", "p.md:2:", []string{"not UTF-8 at byte 16"}},
		// toml counts the table's name line as the one after it.
		{"a table name not closed", "+++\n" + keys + "[tags\nx = 1\n+++\n", "p.md:4:", []string{"not valid TOML", "to end table name"}},
		{"a string not closed", "+++\n" + keys + "library = \"x\nguide = \"g\"\n+++\n", "p.md:4:", []string{"not valid TOML", "strings cannot contain newlines"}},
		// toml stops a byte before a control character: -1 before the first.
		{"a control character before a key", "+++\n" + keys + "\x01library = \"x\"\n+++\n", "p.md:4:", []string{"control characters: '0x01'"}},
		{"a control character first", "+++\n\x01" + keys + "+++\n", "p.md:2:", []string{"control characters: '0x01'"}},
	} {
		// A Windows checkout (CRLF) names the same line: only byte offsets differ.
		for _, nl := range []string{"\n", "\r\n"} {
			t.Run(fmt.Sprintf("%s %q", tc.name, nl), func(t *testing.T) {
				_, _, _, err := Parse("p.md", []byte(strings.ReplaceAll(tc.src, "\n", nl)))
				if err == nil {
					t.Fatalf("Parse passed; want %s %q", tc.at, tc.words)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, tc.at+" ") {
					t.Errorf("error %q does not start with %q", msg, tc.at)
				}
				for _, w := range tc.words {
					if !strings.Contains(msg, w) && (nl == "\n" || !strings.Contains(w, "byte")) {
						t.Errorf("error %q does not hold %q", msg, w)
					}
				}
			})
		}
	}
}

func TestPageURL(t *testing.T) {
	for _, tc := range []struct{ name, url, want string }{
		{"index", "", "/"},
		{"404", "", "/404.html"},
		{"pay", "", "/pay/"},
		{"mcp/index", "", "/mcp/"},
		{"mcp/mcperror", "", "/mcp/mcperror/"},
		{"mcp/mcperror", "/errors/mcp/", "/errors/mcp/"},
	} {
		if got := PageURL(tc.name, tc.url); got != tc.want {
			t.Errorf("PageURL(%q, %q) = %q, want %q", tc.name, tc.url, got, tc.want)
		}
	}
}
