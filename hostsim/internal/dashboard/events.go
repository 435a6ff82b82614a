package dashboard

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/takokit/takokit/hostsim/internal/hostview"
	"github.com/takokit/takokit/hostsim/internal/journal"
)

// liveEvent is one journal event as the stream sends it: what the pages
// need to show it, never the raw data unredacted.
type liveEvent struct {
	Seq     int64       `json:"seq"`
	At      string      `json:"at"`
	Type    string      `json:"type"`
	Summary string      `json:"summary"`
	Subject liveSubject `json:"subject"`
	Detail  string      `json:"detail"`
}

type liveSubject struct {
	Tenant string `json:"tenant,omitempty"`
	Space  string `json:"space,omitempty"`
	Kind   string `json:"kind,omitempty"`
	Name   string `json:"name,omitempty"`
	UID    string `json:"uid,omitempty"`
}

// batch bounds the events one write of the stream carries.
const batch = 256

// pingEvery keeps an idle stream's connection known to be alive.
const pingEvery = 15 * time.Second

// events is the one live stream of the dashboard: every journal event after
// Last-Event-ID (a reconnecting browser sends it), else after ?after= (the
// newest event the page was drawn with), else from now. The journal wakes
// the stream without ever waiting for it; each write has a deadline, so a
// browser that stops reading loses its stream, never holds up the host.
// A gap in the numbers (the journal's bound dropped events the browser had
// not seen) is sent as a "gap" event.
func (u *UI) events(w http.ResponseWriter, r *http.Request, _ *session, _ []string) error {
	after, err := resumeFrom(r, u.State)
	if err != nil {
		return err
	}
	select {
	case <-u.quit:
		return &pageError{Status: http.StatusServiceUnavailable, Title: "Host stopping", Detail: "This host is shutting down; its live stream has ended."}
	default:
	}
	wake, cancel := u.State.Subscribe()
	defer cancel()
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if err := u.send(w, rc, []byte("retry: 2000\n\n")); err != nil {
		return nil
	}
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	var buf bytes.Buffer
	for {
		evs := u.State.Follow(after, batch)
		if len(evs) > 0 {
			buf.Reset()
			if evs[0].Seq > after+1 {
				gap(&buf, after, evs[0].Seq)
			}
			for _, ev := range evs {
				frame(&buf, ev)
			}
			if err := u.send(w, rc, buf.Bytes()); err != nil {
				return nil // the browser left or stopped reading
			}
			after = evs[len(evs)-1].Seq
			if len(evs) == batch {
				continue
			}
		}
		select {
		case <-r.Context().Done():
			return nil
		case <-u.quit:
			return nil
		case <-wake:
		case <-ping.C:
			if err := u.send(w, rc, []byte(": ping\n\n")); err != nil {
				return nil
			}
		}
	}
}

// resumeFrom is the event number the stream starts after.
func resumeFrom(r *http.Request, src *hostview.Source) (int64, error) {
	for _, v := range []string{r.Header.Get("Last-Event-ID"), r.URL.Query().Get("after")} {
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0, &pageError{Status: http.StatusBadRequest, Title: "Bad event number",
				Detail: strconv.Quote(v) + " is not an event number; the stream resumes after a non-negative integer (Last-Event-ID or ?after=)."}
		}
		return n, nil
	}
	return src.LastEvent(), nil
}

// send writes one chunk of the stream under the write deadline and flushes it.
func (u *UI) send(w http.ResponseWriter, rc *http.ResponseController, b []byte) error {
	if err := rc.SetWriteDeadline(time.Now().Add(u.WriteTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	return rc.Flush()
}

func frame(buf *bytes.Buffer, ev journal.Event) {
	sub := hostview.EventSubject(ev)
	b, _ := json.Marshal(liveEvent{Seq: ev.Seq, At: ev.At, Type: ev.Type, Summary: summary(ev), Detail: compact(ev.Data),
		Subject: liveSubject{Tenant: sub.Tenant, Space: sub.Space, Kind: sub.Kind, Name: sub.Name, UID: sub.UID}})
	buf.WriteString("id: ")
	buf.WriteString(strconv.FormatInt(ev.Seq, 10))
	buf.WriteString("\ndata: ")
	buf.Write(b)
	buf.WriteString("\n\n")
}

func gap(buf *bytes.Buffer, after, next int64) {
	b, _ := json.Marshal(map[string]int64{"after": after, "next": next, "dropped": next - after - 1})
	buf.WriteString("event: gap\ndata: ")
	buf.Write(b)
	buf.WriteString("\n\n")
}
