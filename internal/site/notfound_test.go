package site

import (
	"os"
	"strings"
	"testing"
)

// TestTheNotFoundPageSearchesTheCatalogWhenNoHomeListsIt: before the index
// was paged, the not-found page's {{< errors >}} listed every error page,
// whatever / was. Now it lists none and its box reads data-parts pages of
// the index; when / lists no part of it (a content/index.md of the
// writer's own without {{< errors >}}, or a home.html that does not call
// the partial), data-parts is 0, the box searches nothing and says of
// every line, a listed one too, that no page explains it. Refusing is an
// answer too, if it names the page whose box would search nothing.
func TestTheNotFoundPageSearchesTheCatalogWhenNoHomeListsIt(t *testing.T) {
	const notFound = "+++\ntitle = \"Not found\"\ndescription = \"No page here.\"\ncounter = false\nnoindex = true\n+++\n\nPaste it below.\n\n{{< errors >}}\n"
	for _, tc := range []struct {
		name, file, data string
	}{
		{"an index.md of the writer's own", "content/index.md", "+++\ntitle = \"Our errors\"\ndescription = \"Every error we explain.\"\ncounter = false\n+++\n\nWelcome.\n"},
		{"a home.html without the errors partial", "templates/home.html", "<h1>{{.Page.Meta.Title}}</h1>\n<p>Welcome.</p>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := bigCatalog(t, 12)
			writeFile(t, root, tc.file, tc.data)
			writeFile(t, root, "content/404.md", notFound)
			s, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
			if err != nil {
				if !strings.Contains(err.Error(), "content/404.md") {
					t.Fatalf("refused without naming content/404.md: %v", err)
				}
				return
			}
			if missing := missed(t, s, "404.html"); len(missing) > 0 {
				t.Errorf("the not-found page's box finds %d of the %d error pages; missing %v", len(s.catalog.pages)-len(missing), len(s.catalog.pages), missing)
			}
		})
	}
}
