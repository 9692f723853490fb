// Command event is the counter's receiver in production: a Netlify
// Function (AWS Lambda underneath) that serves POST /api/event with the
// same handler as the local preview. Each valid event is stored in
// PostgreSQL when DATABASE_URL (or Netlify Database's NETLIFY_DB_URL) is
// set; an event not stored is written to stdout, which Netlify keeps in
// the function's log, as one JSON line marked not stored. No IP address,
// user agent or header is logged or stored.
package main

import (
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"errref/internal/event"
	"errref/internal/lambdahttp"
	"errref/internal/store"
)

func main() {
	dsn := store.Locate(os.Getenv, "")
	if !store.IsURL(dsn) {
		dsn = "" // a function has no disk to keep a SQLite file on
	}
	sink := store.Sink(dsn, os.Stdout, os.Stderr)
	lambda.Start(lambdahttp.Adapt(&event.Handler{Sink: sink}))
}
