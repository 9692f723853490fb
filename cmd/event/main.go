// Command event is the counter's receiver in production: a Netlify
// Function (AWS Lambda underneath) that serves POST /api/event with the
// same handler as the local preview. Each valid event is written to stdout
// as one JSON line with the server's UTC time; Netlify keeps stdout in the
// function's log. No IP address, user agent or header is logged or stored.
package main

import (
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"errref/internal/event"
	"errref/internal/lambdahttp"
)

func main() {
	lambda.Start(lambdahttp.Adapt(&event.Handler{Sink: event.JSONLines(os.Stdout)}))
}
