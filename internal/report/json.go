// The report as JSON, for scripts.

package report

import (
	"encoding/json"
	"io"
)

// JSON writes r for scripts.
func JSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
