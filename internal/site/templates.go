package site

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"text/template/parse"
	"time"

	"errref/internal/frontmatter"
	"errref/internal/linebreak"
)

// templates are the site's templates, parsed into one set.
type templates struct {
	set   *template.Template
	src   map[string][]byte // templates/FILE.html -> its source
	files map[string]string // template name -> templates/FILE.html
}

// loadTemplates parses templates/*.html and templates/partials/*.html, each
// named by its file's name without .html, as templates and pages call it.
func loadTemplates(site fs.FS, asset func(string) (string, error)) (*templates, error) {
	t := template.New("").Funcs(template.FuncMap{
		"asset": asset,
		// wbr marks where a code-like title may wrap: after a dot, never inside a name.
		"wbr": func(s string) template.HTML { return template.HTML(linebreak.Title(s)) },
	})
	tm := &templates{set: t, src: map[string][]byte{}, files: map[string]string{}}
	for _, pattern := range []string{"*.html", "partials/*.html"} {
		names, _ := fs.Glob(site, TemplateDir+"/"+pattern) // sorted, as fs.ReadDir is
		for _, name := range names {
			if Ignored(path.Base(name)) {
				continue // an editor's lock or backup (.#page.html), as in content/
			}
			src, err := fs.ReadFile(site, name)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if err := frontmatter.NotUTF8(name, src); err != nil {
				return nil, err
			}
			src = bytes.TrimPrefix(src, []byte("\uFEFF")) // a Windows editor's byte order mark, as in content/
			tname := strings.TrimSuffix(path.Base(name), ".html")
			if prev, ok := tm.files[tname]; ok {
				return nil, fmt.Errorf("%s:1: the template name %q is taken by %s", name, tname, prev)
			}
			tm.files[tname] = name
			tm.src[name] = src
			if _, err := t.New(tname).Parse(string(src)); err != nil {
				return nil, tm.error(err)
			}
		}
	}
	for _, name := range []string{"base", "main"} {
		if t.Lookup(name) == nil {
			return nil, fmt.Errorf("%s/: no template defines %q: base.html lays out the page and page.html defines {{define \"main\"}}", TemplateDir, name)
		}
	}
	// A call of a missing template fails only when it runs: find it now.
	var err error
	walk(t, func(tree *parse.Tree, n parse.Node) {
		if tn, ok := n.(*parse.TemplateNode); ok && err == nil && t.Lookup(tn.Name) == nil {
			loc, _ := tree.ErrorContext(tn)
			err = tm.error(fmt.Errorf("template: %s: names the partial %q, which no file in %s/ defines (the templates are %s)", loc, tn.Name, TemplateDir, strings.Join(slices.Sorted(maps.Keys(tm.files)), ", ")))
		}
	})
	if err != nil {
		return nil, err
	}
	return tm, nil
}

var tmplLocRE = regexp.MustCompile(`template: ([A-Za-z0-9_-]+):(\d+)(?::\d+)?:`)

// error rewrites "template: NAME:LINE:" into "templates/FILE.html:LINE:".
func (tm *templates) error(err error) error {
	msg := err.Error()
	if m := tmplLocRE.FindStringSubmatchIndex(msg); m != nil {
		name, line := msg[m[2]:m[3]], msg[m[4]:m[5]]
		if file, ok := tm.files[name]; ok {
			return fmt.Errorf("%s:%s:%s", file, line, msg[m[1]:])
		}
	}
	return fmt.Errorf("%s/: %v", TemplateDir, err)
}

// walk calls fn with every node of every template in t, and its tree.
func walk(t *template.Template, fn func(*parse.Tree, parse.Node)) {
	var list func(*parse.Tree, *parse.ListNode)
	list = func(tree *parse.Tree, l *parse.ListNode) {
		if l == nil {
			return
		}
		for _, n := range l.Nodes {
			fn(tree, n)
			var b *parse.BranchNode
			switch n := n.(type) {
			case *parse.IfNode:
				b = &n.BranchNode
			case *parse.RangeNode:
				b = &n.BranchNode
			case *parse.WithNode:
				b = &n.BranchNode
			}
			if b != nil {
				list(tree, b.List)
				list(tree, b.ElseList)
			}
		}
	}
	for _, tt := range t.Templates() {
		if tt.Tree != nil {
			list(tt.Tree, tt.Tree.Root)
		}
	}
}

// tooSlow names the lines of each {{range}}, the one action that can run without end.
func (tm *templates) tooSlow(limit time.Duration) error {
	var lines []string
	walk(tm.set, func(tree *parse.Tree, n parse.Node) {
		if r, ok := n.(*parse.RangeNode); ok {
			loc, _ := tree.ErrorContext(r)
			lines = append(lines, tm.error(fmt.Errorf("template: %s: took longer than %v to render: this {{range}} may not end (-timeout sets the limit)", loc, limit)).Error())
		}
	})
	if len(lines) == 0 {
		return fmt.Errorf("%s/: the pages took longer than %v to render (-timeout sets the limit)", TemplateDir, limit)
	}
	slices.Sort(lines)
	return errors.New(strings.Join(lines, "\n"))
}
