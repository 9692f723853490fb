// The report page at /_preview/report, read from the preview's store.

package preview

import (
	"bytes"
	"net/http"
	"time"

	"errref/internal/report"
)

// report serves the page go run ./cmd/report -html writes, of the last 30
// days, from the preview's store, reloaded every 5 s, so that the author
// sees it move while clicking through the page in another tab.
func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		http.Error(w, "the preview keeps no events: it was started with -db=none", http.StatusNotFound)
		return
	}
	now := time.Now()
	from, to, _ := report.Period(now, 30*24*time.Hour, "", "") // no dates given: it cannot fail
	rep, err := report.Load(r.Context(), s.store, report.Query{From: from, To: to, Today: report.Today(now)})
	var b bytes.Buffer
	if err == nil {
		err = report.HTML(&b, rep)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Refresh", "5")
	w.Write(b.Bytes())
}
