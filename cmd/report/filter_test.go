package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"errref/internal/event"
	"errref/internal/report"
)

// TestFiltersMatchWhatTheCounterRecords: on a site whose page is
// /mcp/mcperror/, with a view of it and of a page since removed, each from
// news.ycombinator.com under the outreach code abc123, a -path that is no
// page and was not read is refused naming the nearest page; -ref is read
// as the counter records a referrer, a URL's host in lower case; and a
// code that matches nothing, as the counter records it, says so.
func TestFiltersMatchWhatTheCounterRecords(t *testing.T) {
	dir := t.TempDir()
	siteIn(t, dir, map[string]string{"mcp/mcperror.md": "+++\ntitle = \"x\"\ndescription = \"d\"\n+++\nText.\n\n{{< marker >}}\n"})
	ms, scrolled, code := int64(1), false, "abc123"
	var log []byte
	for _, path := range []string{"/mcp/mcperror/", "/gone/"} {
		e := event.Event{Name: event.View, Path: path, Ref: "news.ycombinator.com", VisibleMS: &ms, Scrolled: &scrolled, Outreach: &code}
		log = append(log, e.NotStoredLine(time.Now())...)
	}
	os.WriteFile(filepath.Join(dir, "log.jsonl"), log, 0o644)
	if code, _, errs := runReport(t, dir, nil, "-import", "log.jsonl"); code != 0 {
		t.Fatal(errs)
	}
	for _, tc := range []struct {
		args   []string
		views  int    // -1: refused
		stderr string // a warning or error it holds, or none
	}{
		{[]string{"-path", "/mcp/mcperror"}, -1, `report: -path "/mcp/mcperror" is no page of the site, and no reading event of the period or the one before matches the filter: the nearest page is "/mcp/mcperror/"`},
		{[]string{"-path", "mcp/mcperror/"}, -1, `the nearest page is "/mcp/mcperror/"`},
		{[]string{"-path", "/mcp/mcperror/"}, 1, ""},
		{[]string{"-path", "/gone/"}, 1, ""}, // no page now, but read
		{[]string{"-ref", "https://news.ycombinator.com/"}, 2, ""},
		{[]string{"-ref", "News.YCombinator.com"}, 2, ""},
		{[]string{"-ref", "https://"}, -1, `report: -ref "https://": give a referrer's host, such as news.ycombinator.com, or a URL on it`},
		{[]string{"-outreach", "abc123"}, 2, ""},
		{[]string{"-outreach", "ABC123"}, 0, `has outreach "ABC123", of the 2 the period holds; 2 of them match it but for case: a campaign and an outreach code are matched as recorded, case included`},
		{[]string{"-path", "/mcp/mcperorr/"}, -1, `-path "/mcp/mcperorr/" is no page of the site, and no reading event of the period or the one before matches the filter: give a page's path as its address shows it, such as /pay/`},
		{[]string{"-path", "/gone/", "-ref", "github.com"}, -1, `-path "/gone/" is no page of the site`},
		{[]string{"-ref", "//:80"}, -1, `-ref "//:80": give a referrer's host`},
		{[]string{"-ref", "github.com"}, 0, `has referrer "github.com", of the 2 the period holds` + "\n"},
	} {
		code, out, errs := runReport(t, dir, nil, append(tc.args, "-json")...)
		var r report.Report
		switch {
		case tc.views < 0 && (code != 1 || out != ""), tc.views >= 0 && (code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Total.View != tc.views):
			t.Errorf("%v: exit %d, %d views, want %d: %s", tc.args, code, r.Total.View, tc.views, errs)
		case tc.stderr == "" && strings.Contains(errs, "warning") || !strings.Contains(errs, tc.stderr):
			t.Errorf("%v: stderr %q, want %q", tc.args, errs, tc.stderr)
		case r.Filter.Ref != "" && r.Filter.Ref != "news.ycombinator.com" && r.Filter.Ref != "github.com":
			t.Errorf("%v: the JSON names the referrer %q", tc.args, r.Filter.Ref)
		}
	}
}

// A campaign's or outreach code's control and bidi characters are kept as
// U+FFFD (docs/counter.md): -campaign and -outreach, typed as the link had
// them (a right-to-left mark in a Hebrew campaign's name), or copied from
// the report, find those views.
func TestFiltersReadMarksAsTheReceiverKeepsThem(t *testing.T) {
	dir := t.TempDir()
	siteIn(t, dir, map[string]string{"mcp/mcperror.md": "+++\ntitle = \"x\"\ndescription = \"d\"\n+++\nText.\n\n{{< marker >}}\n"})
	ms, scrolled, code := int64(1), false, "rtl\u200fcode"
	e := event.Event{Name: event.View, Path: "/mcp/mcperror/", VisibleMS: &ms, Scrolled: &scrolled, Outreach: &code,
		Campaign: map[string]string{"utm_campaign": "spring\u200fsale"}}
	os.WriteFile(filepath.Join(dir, "log.jsonl"), e.NotStoredLine(time.Now()), 0o644)
	if code, _, errs := runReport(t, dir, nil, "-import", "log.jsonl"); code != 0 {
		t.Fatal(errs)
	}
	for _, args := range [][]string{
		{"-campaign", "spring\u200fsale"}, {"-campaign", "spring\ufffdsale"},
		{"-outreach", "rtl\u200fcode"}, {"-outreach", "rtl\ufffdcode"},
	} {
		code, out, errs := runReport(t, dir, nil, append(args, "-json")...)
		var r report.Report
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Total.View != 1 {
			t.Errorf("%q: exit %d, %d views, want 1: %s", args, code, r.Total.View, errs)
		}
	}
}
