// Command event is the counter's receiver in production: a Netlify Function
// (AWS Lambda underneath) that serves POST /api/event with the preview's handler.
// Each valid event is stored in PostgreSQL when DATABASE_URL (or NETLIFY_DB_URL)
// is set; one not stored goes to stdout, the function's log, as a JSON line marked
// not stored. No IP address, user agent or header is logged or stored.
package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"errref/internal/event"
	"errref/internal/store"
)

func main() {
	dsn, from, err := store.Locate(os.Getenv, "")
	switch {
	case err != nil:
		fmt.Fprintf(os.Stderr, "store: %v: events go to the log, marked not stored\n", err)
		dsn = ""
	case dsn == "":
		fmt.Fprintln(os.Stderr, "store: neither DATABASE_URL nor NETLIFY_DB_URL is set: events go to the log, marked not stored")
	case !store.IsPostgres(dsn):
		// A function has no disk to keep a SQLite file on.
		fmt.Fprintf(os.Stderr, "store: %s names a file, and a function keeps no files: events go to the log, marked not stored\n", from)
		dsn = ""
	default:
		fmt.Fprintf(os.Stderr, "store: events are stored in %s (from %s); any it cannot store go to the log, marked not stored\n", store.Describe(dsn), from)
	}
	lambda.Start(adapt(&event.Handler{Sink: store.FunctionWriter(dsn, os.Stdout, os.Stderr).Receive}))
}

// adapt serves API Gateway's proxy events, as Netlify runs Go functions, through h.
func adapt(h http.Handler) func(context.Context, events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error) {
	return func(ctx context.Context, req events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error) {
		body := req.Body
		if req.IsBase64Encoded {
			b, err := base64.StdEncoding.DecodeString(req.Body)
			if err != nil {
				return events.APIGatewayProxyResponse{StatusCode: http.StatusBadRequest, Body: "body is not base64\n"}, nil
			}
			body = string(b)
		}
		r, err := http.NewRequestWithContext(ctx, req.HTTPMethod, (&url.URL{Path: req.Path}).String(), strings.NewReader(body))
		if err != nil {
			return events.APIGatewayProxyResponse{StatusCode: http.StatusBadRequest, Body: "bad request\n"}, nil
		}
		for k, v := range req.Headers {
			r.Header.Set(k, v)
		}
		for k, vs := range req.MultiValueHeaders {
			r.Header[http.CanonicalHeaderKey(k)] = vs
		}
		r.Host = r.Header.Get("Host")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		resp := events.APIGatewayProxyResponse{StatusCode: w.Code, Body: w.Body.String(), Headers: map[string]string{}}
		for k := range w.Header() {
			resp.Headers[k] = w.Header().Get(k)
		}
		return resp, nil
	}
}
