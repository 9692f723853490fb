package site

import (
	"bytes"
	"fmt"

	"errref/internal/message"
)

// parseMessages reads the page's messages (front matter), each refused at
// its line when it is not a line a reader could match.
func (p *Page) parseMessages() error {
	for _, s := range p.Meta.Messages {
		m, err := message.Parse(s)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", p.File, p.messageLine(s), err)
		}
		p.Messages = append(p.Messages, m)
	}
	return nil
}

// checkMessages holds each message to the page's quotes: the index may
// list only a line the cited source can print.
func (p *Page) checkMessages(quotes []string) error {
	if i, err := message.Check(p.Messages, quotes); err != nil {
		return fmt.Errorf("%s:%d: message %q: %w", p.File, p.messageLine(p.Meta.Messages[i]), p.Meta.Messages[i], err)
	}
	return nil
}

// messageLine is the line that writes s, looked for from the messages
// key on (the title may say the same), else the key's line.
func (p *Page) messageLine(s string) int {
	lines := bytes.SplitAfter(p.raw, []byte("\n"))
	for i := p.Meta.MessagesLine - 1; i >= 0 && i < len(lines); i++ {
		if bytes.Contains(lines[i], []byte(s)) {
			return i + 1
		}
	}
	return p.Meta.MessagesLine
}
