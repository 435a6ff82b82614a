// Package reqlog is the text log handler of `hostsim serve`: slog's TextHandler,
// which writes the lane's one line per request itself, in the same form, without
// building a slog.Record and walking it (docs/decisions.md, "hostsim speed").
package reqlog

import (
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// Handler is a slog.TextHandler writing to w with default options; its Request
// writes the request line directly.
type Handler struct {
	*slog.TextHandler
	w   io.Writer
	mu  sync.Mutex
	buf []byte
}

// New is a Handler writing to w. The text handler and Request each write a whole
// line under a lock of their own, so w must take concurrent writes (serve's log
// batcher does; a bytes.Buffer does not).
func New(w io.Writer) *Handler {
	return &Handler{TextHandler: slog.NewTextHandler(w, nil), w: w}
}

// Request writes, as the text handler writes an Info record "request" with these
// attributes at t, the line of one request, and reports true; it reports false,
// writing nothing, when a value is one the text handler would quote (the caller
// then logs the record the usual way).
func (h *Handler) Request(t time.Time, id, tenant, method, route string, status int, d time.Duration) bool {
	dur := d.String()
	if !plain(id) || !plain(tenant) || !plain(method) || !plain(route) || !plain(dur) {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	b := append(h.buf[:0], "time="...)
	b = t.AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, " level=INFO msg=request requestId="...)
	b = append(b, id...)
	b = append(b, " tenant="...)
	b = append(b, tenant...)
	b = append(b, " method="...)
	b = append(b, method...)
	b = append(b, " route="...)
	b = append(b, route...)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, " duration="...)
	b = append(b, dur...)
	b = append(b, '\n')
	h.buf = b
	_, _ = h.w.Write(b)
	return true
}

// plain reports whether s is written as it is by the text handler: not empty,
// and only letters, digits, . _ - : / + and µ (a duration's micro sign), none of
// which it quotes.
func plain(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		case r == '.', r == '_', r == '-', r == ':', r == '/', r == '+', r == 'µ':
		default:
			return false
		}
	}
	return true
}
