// The command that removes the lines of a journal a report refuses.

package store

import (
	"strconv"
	"strings"
)

// RemoveLines is a command that removes the numbered lines of the file
// at path, as GNU and BSD sed both read it (the old file is kept as
// path.bak): what unblocks a report that refuses them. -import skips a
// line it refuses, but the journal would still hold it.
func RemoveLines(path string, lines []int) string {
	var script []string
	for _, n := range lines {
		script = append(script, strconv.Itoa(n)+"d")
	}
	return "sed -i.bak '" + strings.Join(script, ";") + "' " + shellQuote(path)
}

// shellQuote is s as one word for a POSIX shell.
func shellQuote(s string) string {
	const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@%+=,"
	if s != "" && strings.Trim(s, safe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
