package output

import (
	"strings"
	"testing"
)

// TestCheckDir: an output folder is refused when it is the site folder, a
// folder holding it, or a place inside one of its kept folders, spelt in
// any case; a folder beside them passes.
func TestCheckDir(t *testing.T) {
	kept := []string{"content", "templates", "static", "measure", ".git"}
	for _, tc := range []struct {
		dir  string
		want string // in the error; "" for none
	}{
		{"public", ""},
		{"site-out/x", ""},
		{".", "it is or holds the site folder"},
		{"..", "it is or holds the site folder"},
		{"content", "it is inside"},
		{"static", "it is inside"},
		{"templates/x/..", "it is inside"},
		{"Content", "it is inside"},
		{"STATIC/x", "it is inside"},
		{"Templates/x/..", "it is inside"},
		{"Measure", "it is inside"},
		{".GIT/objects", "it is inside"},
	} {
		err := CheckDir(tc.dir, ".", kept)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckDir(%q) = %v, want it to pass", tc.dir, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("CheckDir(%q) = %v, want an error holding %q", tc.dir, err, tc.want)
		case tc.want != "" && !strings.HasPrefix(err.Error(), tc.dir+": refusing to build into this folder"):
			t.Errorf("CheckDir(%q) = %v, want it to name the folder first", tc.dir, err)
		}
	}
}
