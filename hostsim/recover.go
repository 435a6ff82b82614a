package hostsim

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/labstack/echo/v4"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
)

// PanicLogMessage is the message of the log record a recovered panic leaves
// (with its stack): the scenario harness fails a scenario whose host logged it.
const PanicLogMessage = "panic recovered"

// recoverPanics is the outermost middleware: a handler that panics (a hostsim
// bug, or the fault panic) is answered internal_error 500 in the lane's error
// envelope, and the panic is logged with its stack, instead of net/http
// dropping the connection and printing to stderr (docs/protocol.md#errors).
// An http.ErrAbortHandler is a deliberate drop and goes on to net/http.
func recoverPanics(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			defer func() {
				v := recover()
				if v == nil {
					return
				}
				if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(v)
				}
				r, w := c.Request(), c.Response()
				id := decide.NewRequestID()
				log.Error(PanicLogMessage, "requestId", id, "method", r.Method, "path", r.URL.EscapedPath(),
					"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				if w.Committed {
					return // the answer had begun: nothing sound can follow it
				}
				e := &wire.Error{Code: wire.CodeInternalError, RequestID: id, Retryable: false,
					Message: fmt.Sprintf("hostsim failed while answering %s %s and logged the failure with its stack under request %s; read the resource before retrying, and report the log lines of that request", r.Method, r.URL.EscapedPath(), id)}
				body, _ := json.Marshal(wire.Envelope{Error: e})
				h := w.Header()
				h.Del(wire.HeaderETag)
				h.Set(wire.HeaderContentType, wire.ContentTypeJSON)
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write(body)
			}()
			return next(c)
		}
	}
}
