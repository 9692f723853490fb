package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"errref/internal/event"
)

func TestThroughTheAdapter(t *testing.T) {
	view := `{"name":"view","path":"/","visible_ms":12,"scrolled":false,"campaign":{"utm_source":"hn"},"outreach":"abc"}`
	deep := `{"name":"view","campaign":` + strings.Repeat(`{"a":`, 50) + `1` + strings.Repeat(`}`, 50) + `}`
	for _, tc := range []struct {
		name    string
		method  string
		headers map[string]string
		body    string
		b64     bool
		want    int
		logged  bool
	}{
		{"view", "POST", nil, view, false, 204, true},
		{"view, base64", "POST", nil, view, true, 204, true},
		{"click", "POST", nil, `{"name":"copy-sketch"}`, false, 204, true},
		{"checkout", "POST", nil, `{"name":"checkout","checkout":"gumroad"}`, false, 204, true},
		{"json content type", "POST", map[string]string{"Content-Type": "application/json"}, `{"name":"copy-sketch"}`, false, 204, true},
		{"too large", "POST", nil, `{"name":"x","y":"` + strings.Repeat("a", 1030) + `"}`, false, 400, false},
		{"not JSON", "POST", nil, `name=view`, false, 400, false},
		{"two objects", "POST", nil, `{"name":"x"}{"name":"y"}`, false, 400, false},
		{"unknown name", "POST", nil, `{"name":"Bad Name"}`, false, 400, false},
		{"unknown key", "POST", nil, `{"name":"checkout","checkout":"site","path":"/"}`, false, 400, false},
		{"wrong type", "POST", nil, `{"name":"view","path":"/","visible_ms":1.5,"scrolled":false}`, false, 400, false},
		{"control character", "POST", nil, `{"name":"view","path":"/","visible_ms":1,"scrolled":false,"ref":"a\u0007b"}`, false, 400, false},
		{"control character in a campaign", "POST", nil, `{"name":"view","path":"/","visible_ms":1,"scrolled":false,"campaign":{"utm_source":"a\u0007b"}}`, false, 204, true},
		{"deep nesting", "POST", nil, deep, false, 400, false},
		{"duplicate key", "POST", nil, `{"name":"copy-sketch","name":"view"}`, false, 400, false},
		{"GET", "GET", nil, ``, false, 405, false},
		{"form content type", "POST", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, `{"name":"x"}`, false, 415, false},
		{"cross-site fetch", "POST", map[string]string{"Sec-Fetch-Site": "cross-site"}, `{"name":"x"}`, false, 403, false},
		{"other origin", "POST", map[string]string{"Origin": "https://evil.example"}, `{"name":"x"}`, false, 403, false},
		{"same origin", "POST", map[string]string{"Origin": "https://errors.example.org", "Sec-Fetch-Site": "same-origin"}, `{"name":"x"}`, false, 204, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			at := time.Date(2026, 12, 2, 14, 3, 7, 0, time.FixedZone("x", 3600))
			h := adapt(&event.Handler{Sink: func(e event.Event, _ time.Time) error { _, err := log.Write(e.NotStoredLine(at)); return err }})
			headers := map[string]string{"Content-Type": "text/plain;charset=UTF-8", "Host": "errors.example.org", "User-Agent": "Mozilla/5.0 secret-ua", "X-Forwarded-For": "203.0.113.9"}
			for k, v := range tc.headers {
				headers[k] = v
			}
			body := tc.body
			if tc.b64 {
				body = base64.StdEncoding.EncodeToString([]byte(body))
			}
			resp, err := h(context.Background(), events.APIGatewayProxyRequest{HTTPMethod: tc.method, Path: "/api/event", Headers: headers, Body: body, IsBase64Encoded: tc.b64})
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.want {
				t.Errorf("status %d %q, want %d", resp.StatusCode, resp.Body, tc.want)
			}
			if tc.logged != (log.Len() > 0) {
				t.Errorf("logged %q, want logged=%v", log.String(), tc.logged)
			}
			if strings.Contains(log.String(), "secret-ua") || strings.Contains(log.String(), "203.0.113.9") || strings.Contains(log.String(), "a\u0007b") {
				t.Errorf("the log holds a header or raw input: %s", log.String())
			}
			if tc.logged {
				var line map[string]any
				if err := json.Unmarshal(log.Bytes(), &line); err != nil || line["ts"] != "2026-12-02T13:03:07Z" {
					t.Errorf("log line %q: want JSON with the UTC ts", log.String())
				}
			}
		})
	}
}
