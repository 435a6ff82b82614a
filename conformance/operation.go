package conformance

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// Operation is the lane's Operation document.
type Operation struct {
	APIVersion string `json:"apiVersion,required"`
	Kind       string `json:"kind,required"`
	ID         string `json:"id,required"`
	Done       bool   `json:"done,required"`
	Target     *struct {
		UID            string `json:"uid,omitempty"`
		ManifestDigest string `json:"manifestDigest,omitempty"`
	} `json:"target,omitempty"`
	Metadata *struct {
		Phase    string `json:"phase,omitempty"`
		Progress *int   `json:"progress,omitempty"`
	} `json:"metadata,omitempty"`
	Result map[string]json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code      wire.Code `json:"code,required"`
		Message   string    `json:"message,required"`
		Retryable bool      `json:"retryable,required"`
		HostCode  string    `json:"hostCode,omitempty"`
	} `json:"error,omitempty"`
}

// accepted decodes a 202 answer's Operation.
func accepted(r *Resp) (*Operation, error) {
	var env struct {
		Operation json.RawMessage `json:"operation,required"`
	}
	if err := wire.DecodeStrict(r.Body, &env); err != nil {
		return nil, failf("%s: 202 answer is not {\"operation\": …}: %v", r.What(), err)
	}
	return decodeOperation(r, env.Operation)
}

func decodeOperation(r *Resp, raw []byte) (*Operation, error) {
	var op Operation
	if err := wire.DecodeStrict(raw, &op); err != nil {
		return nil, failf("%s: Operation does not decode: %v", r.What(), err)
	}
	if op.Done == (op.Result == nil && op.Error == nil) || (op.Result != nil && op.Error != nil) {
		return nil, failf("%s: Operation %s has done=%v with result=%v and error=%v; exactly one of them belongs to a done operation", r.What(), op.ID, op.Done, op.Result != nil, op.Error != nil)
	}
	return &op, nil
}

// poll GETs an operation once.
func (p *Probe) poll(ctx context.Context, c *Client, id string) (*Resp, *Operation, error) {
	r, err := c.Do(ctx, Req{Method: http.MethodGet, Target: API + "/operations/" + id})
	if err != nil {
		return nil, nil, err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return r, nil, err
	}
	op, err := decodeOperation(r, r.Body)
	if err != nil {
		return r, nil, err
	}
	if !op.Done && r.Header.Get("Retry-After") == "" {
		return r, op, failf("%s: pending Operation poll carries no Retry-After", r.What())
	}
	return r, op, nil
}

// await polls the Operation of a 202 answer until it is done (at most 20 polls).
func (p *Probe) await(ctx context.Context, c *Client, r *Resp) (*Operation, error) {
	op, err := accepted(r)
	if err != nil {
		return nil, err
	}
	for i := 0; i < 20 && !op.Done; i++ {
		var pr *Resp
		pr, op, err = p.poll(ctx, c, op.ID)
		if err != nil {
			return nil, err
		}
		if !op.Done {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(pollWait(pr.Header.Get(wire.HeaderRetryAfter)) + p.pollPause):
			}
		}
	}
	if !op.Done {
		return nil, failf("operation %s is still pending after 20 polls", op.ID)
	}
	return op, nil
}

// maxPollWait is the longest a pending poll's Retry-After holds the run
// (docs/guides/conformance.md#operations-followed): a host asking for an hour does not hold
// the run for an hour.
const maxPollWait = 2 * time.Second

// pollWait is the pause a pending poll's Retry-After (whole seconds) asks for, at most
// maxPollWait; a value that is no whole number asks for none.
func pollWait(retryAfter string) time.Duration {
	secs, _ := strconv.Atoi(retryAfter)
	return min(time.Duration(secs)*time.Second, maxPollWait)
}
