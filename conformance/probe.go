package conformance

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// Probe is what a check runs with: the clients, a fresh space, the runner's
// catalog and the host's claimed surface.
type Probe struct {
	P       *Client // primary principal of tenant A
	Alt     *Client // second principal of tenant A; nil unless given
	Other   *Client // principal of tenant B; nil unless given
	Space   string  // fresh for this check
	Cat     *catalog.Catalog
	S       *Surface
	run     string
	check   int // the check's place in the run: what keeps tenant-wide values apart between checks
	seq     int
	natives int // the nativeIds made so far (nativeID)
	world   *world
	// declined are the worker attachments the host refused unsupported_capability
	// whichever handler their worker's versions declared (specFor), with the refusal
	declined map[wire.FormRef]string
	// pollPause is the wait between two polls beyond their Retry-After (Config.PollPause)
	pollPause time.Duration
}

// Name returns a fresh resource name for this run and check.
func (p *Probe) Name(prefix string) string {
	p.seq++
	n := fmt.Sprintf("%s-%s-%d", prefix, p.run, p.seq)
	if len(n) > 63 {
		n = n[len(n)-63:]
		n = "n" + strings.TrimLeft(n[1:], "-")
	}
	return n
}

// nativeID is a fresh nativeId for this run. An import claims its nativeId
// tenant-wide, across spaces and kinds (docs/protocol.md#import), so, as with
// freshHost, the check's place keeps two checks of one run apart (the
// self-test's sweeps run one check many times in one run) and the run two runs.
func (p *Probe) nativeID(prefix string) string {
	p.natives++ // its own count: the names the check makes stay as they were
	return fmt.Sprintf("conformance-%s-%s-%d-%d", prefix, p.run, p.check, p.natives)
}

// ResourcePath is the path of a resource under its group (two path segments).
func ResourcePath(ref wire.FormRef, name string) string {
	return API + "/resources/" + ref.APIVersion + "/" + ref.Kind + "/" + name
}

// exactQuery renders the five-key exact-FormRef query, spaces as %20 (docs/protocol.md#spaces).
func exactQuery(space string, ref wire.FormRef) string {
	return "?" + strings.ReplaceAll(wire.ExactQuery(space, ref).Encode(), "+", "%20")
}

// get sends a GET with the primary credential.
func (p *Probe) get(ctx context.Context, target string) (*Resp, error) {
	return p.P.Do(ctx, Req{Method: http.MethodGet, Target: target})
}

// expectStatus fails unless r has one of the statuses.
func expectStatus(r *Resp, statuses ...int) error {
	for _, s := range statuses {
		if r.Status == s {
			return nil
		}
	}
	want := make([]string, len(statuses))
	for i, s := range statuses {
		want[i] = fmt.Sprint(s)
	}
	return &Failure{Msg: fmt.Sprintf("%s: expected %s, got %s", r.What(), strings.Join(want, " or "), r.Got()), Code: r.Code(), Resp: r}
}

// expectCode fails unless r is the valid error envelope of code with its status.
func expectCode(r *Resp, code wire.Code) error {
	if r.Err != nil && r.Err.Code == code && r.Status == code.Status() {
		return nil
	}
	return &Failure{Msg: fmt.Sprintf("%s: expected %d %s, got %s", r.What(), code.Status(), code, r.Got()), Code: r.Code(), Resp: r}
}
