package markdown

import (
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
)

// newHTMLRenderer is goldmark's own renderer, without unsafe: raw HTML is
// omitted. Our renderer, registered with a higher priority, replaces the
// node kinds it knows.
func newHTMLRenderer() renderer.NodeRenderer { return html.NewRenderer() }
