package client

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/takokit/takokit/catalog/wire"
)

// LogMessage is the message of the one Debug line every host request writes
// (docs/provider-design.md#logging).
const LogMessage = "takoform host request"

// HeaderRequestID is the response header a host may name its request id in; an error
// envelope's requestId is used when the header is absent.
const HeaderRequestID = "X-Request-Id"

// logRequest writes the request's Debug line: method, path (never the query), status
// (0 when no answer came), the host's request id when it gave one, and the duration;
// a request without an answer adds why. Headers and bodies are never logged: the line
// has these fields and no others, so no field carries the Authorization header. The
// token is masked should it reach one (a path may hold it; log_test.go).
func (c *Client) logRequest(ctx context.Context, req *http.Request, resp *http.Response, body []byte, err error, took time.Duration) {
	if !tflog.IsDebug(ctx) {
		return
	}
	fields := map[string]any{
		"method":      req.Method,
		"path":        req.URL.EscapedPath(),
		"status":      0,
		"request_id":  "",
		"duration_ms": float64(took.Microseconds()) / 1000,
	}
	if resp != nil {
		fields["status"] = resp.StatusCode
		fields["request_id"] = requestID(resp.Header, resp.StatusCode, body)
	}
	if err != nil {
		fields["error"] = failureText(req.Method, req.URL.String(), err)
	}
	ctx = tflog.MaskLogStrings(ctx, c.token)
	tflog.Debug(ctx, LogMessage, fields)
}

// requestID is the header's id, else an error envelope's requestId.
func requestID(h http.Header, status int, body []byte) string {
	if id := h.Get(HeaderRequestID); id != "" {
		return id
	}
	if status < 300 || len(body) == 0 {
		return ""
	}
	var env struct {
		Error struct {
			RequestID string `json:"requestId"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil {
		return ""
	}
	return env.Error.RequestID
}

// failureText says why no answer came, without the URL's query.
func failureText(method, u string, err error) string {
	if un, ok := AsUnreachable(&TransportError{Method: method, URL: u, Err: err}); ok {
		return un.Headline() + ": " + un.Reason
	}
	return "no complete answer from the host: " + wire.TransportCause(err).Error()
}
