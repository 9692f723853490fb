package measure_test

import (
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// shown lists the index's errors by link, each with whether it shows, and
// how many of its sections show.
const shown = `({
  items: [...document.querySelectorAll("section.errors li")].map(li => [li.querySelector("a").getAttribute("href"), li.offsetParent !== null]),
  sections: [...document.querySelectorAll("section.errors")].filter(s => s.offsetParent !== null).length,
  box: document.getElementById("filter-box").offsetParent !== null,
})`

type index struct {
	Items    [][2]any `json:"items"`
	Sections float64  `json:"sections"`
	Box      bool     `json:"box"`
}

func (h *harness) index() index {
	h.t.Helper()
	got, err := chromedp.Run(h.ctx, chromedp.Evaluate[index](shown))
	if err != nil {
		h.t.Fatal(err)
	}
	if len(got.Items) == 0 {
		h.t.Fatal("the index lists no errors")
	}
	return got
}

// TestFilterShowsOnlyWhatHoldsTheText types into the index's filter as a
// reader does: an error's own title leaves that error showing, text that no
// error holds hides every error and section, and clearing it shows all.
func TestFilterShowsOnlyWhatHoldsTheText(t *testing.T) {
	h := newHarness(t, opts{})
	h.open("/", "")
	before := h.index()
	if !before.Box {
		t.Fatal("the filter box does not show with script on")
	}
	first := before.Items[0][0].(string)
	title, err := chromedp.Run(h.ctx, chromedp.Evaluate[string](`document.querySelector("section.errors li a").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	type1 := func(text string) index {
		t.Helper()
		if err := chromedp.Do(h.ctx, chromedp.SendKeys("#filter", text)); err != nil {
			t.Fatal(err)
		}
		return h.index()
	}
	for _, it := range type1(title).Items {
		if it[0] == first && it[1] != true {
			t.Errorf("typing %q hid %s, whose title it is", title, first)
		}
	}
	none := type1("zq-no-error-holds-this")
	for _, it := range none.Items {
		if it[1] == true {
			t.Errorf("text no error holds left %s showing", it[0])
		}
	}
	if none.Sections != 0 {
		t.Errorf("%v sections show with no error in them", none.Sections)
	}
	// Emptied, then a key typed and taken back, so that the last input
	// event is the reader's own.
	h.eval(`document.getElementById("filter").value = ""`)
	for _, it := range type1(" \b").Items {
		if it[1] != true {
			t.Errorf("an empty filter hides %s", it[0])
		}
	}
}

// TestFilterMovesNothing: the box is laid out from the start, so the
// filter's script shifts no part of the index (Lighthouse's CLS), even
// when it comes after the first paint.
func TestFilterMovesNothing(t *testing.T) {
	h := newHarness(t, opts{slow: "filter.js", preload: `window.shifts = 0;
new PerformanceObserver(l => l.getEntries().forEach(e => { window.shifts += e.value; })).observe({type: "layout-shift", buffered: true});`})
	h.open("/", "")
	h.frames()
	h.frames()
	if s := h.eval(`window.shifts`); s != float64(0) {
		t.Errorf("the index shifted as it loaded: layout shift %v, want 0", s)
	}
}

// TestWithoutScriptEveryErrorShowsAndNoBox: with script off, the box that
// would do nothing is hidden and every error is listed.
func TestWithoutScriptEveryErrorShowsAndNoBox(t *testing.T) {
	h := newHarness(t, opts{})
	if _, err := chromedp.Call(h.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	h.open("/", "")
	got := h.index()
	if got.Box {
		t.Error("the filter box shows with script off, where it can do nothing")
	}
	for _, it := range got.Items {
		if it[1] != true {
			t.Errorf("%s is hidden with script off", it[0])
		}
	}
}
