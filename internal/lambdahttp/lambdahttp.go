// Package lambdahttp runs an http.Handler as an AWS Lambda function behind
// API Gateway's proxy events, which is how Netlify runs Go functions.
package lambdahttp

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/aws/aws-lambda-go/events"
)

// Adapt returns a Lambda handler that serves each request through h.
func Adapt(h http.Handler) func(context.Context, events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error) {
	return func(ctx context.Context, req events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error) {
		body := req.Body
		if req.IsBase64Encoded {
			b, err := base64.StdEncoding.DecodeString(req.Body)
			if err != nil {
				return events.APIGatewayProxyResponse{StatusCode: http.StatusBadRequest, Body: "body is not base64\n"}, nil
			}
			body = string(b)
		}
		u := url.URL{Path: req.Path}
		r, err := http.NewRequestWithContext(ctx, req.HTTPMethod, u.String(), strings.NewReader(body))
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
