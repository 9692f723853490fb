// Command event is the counter's receiver in production: a Netlify
// Function (AWS Lambda underneath) that serves POST /api/event with the
// same handler as the local preview. Each valid event is stored in
// PostgreSQL when DATABASE_URL (or Netlify Database's NETLIFY_DB_URL) is
// set; an event not stored is written to stdout, which Netlify keeps in
// the function's log, as one JSON line marked not stored. No IP address,
// user agent or header is logged or stored.
package main

import (
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"errref/internal/event"
	"errref/internal/lambdahttp"
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
	w := store.FunctionWriter(dsn, os.Stdout, os.Stderr)
	lambda.Start(lambdahttp.Adapt(&event.Handler{Sink: w.Receive}))
}
