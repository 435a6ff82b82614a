package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/takokit/takokit/provider/internal/lazyre"
	"net/url"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// Operation is the bare Operation object (docs/provider-design.md#lifecycle).
type Operation struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	ID         string          `json:"id"`
	Done       bool            `json:"done"`
	Target     *OpTarget       `json:"target,omitempty"`
	Metadata   *OpMetadata     `json:"metadata,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Error      *OpError        `json:"error,omitempty"`
}

// OpTarget names the incarnation an operation addresses.
type OpTarget struct {
	UID            *string `json:"uid,omitempty"`
	ManifestDigest *string `json:"manifestDigest,omitempty"`
}

// OpMetadata is progress information.
type OpMetadata struct {
	Phase    *string `json:"phase,omitempty"`
	Progress *int64  `json:"progress,omitempty"`
}

// OpError is a terminal operation error.
type OpError struct {
	Code      wire.Code `json:"code"`
	Message   string    `json:"message"`
	Retryable bool      `json:"retryable"`
	HostCode  *string   `json:"hostCode,omitempty"`
}

var opIDRe = lazyre.New(`^op_[A-Za-z0-9][A-Za-z0-9._-]{0,124}$`)

// ValidOperationID reports the operation id grammar.
func ValidOperationID(s string) bool { return opIDRe.MatchString(s) }

// HostUID is the valid target.uid, or "".
func (o *Operation) HostUID() string {
	if o != nil && o.Target != nil && o.Target.UID != nil && wire.ValidUID(*o.Target.UID) {
		return *o.Target.UID
	}
	return ""
}

func (o *Operation) validate() error {
	switch {
	case o.APIVersion != "operations.takoform.com/v1alpha1" || o.Kind != "Operation":
		return fmt.Errorf("operation is %s %s, not operations.takoform.com/v1alpha1 Operation", o.APIVersion, o.Kind)
	case !opIDRe.MatchString(o.ID):
		return fmt.Errorf("operation id %q does not match ^op_…", o.ID)
	case !o.Done && (o.Result != nil || o.Error != nil):
		return fmt.Errorf("pending operation %s carries a result or error", o.ID)
	case o.Done && (o.Result == nil) == (o.Error == nil):
		return fmt.Errorf("finished operation %s must carry exactly one of result and error", o.ID)
	case o.Result != nil && string(o.Result) == "null":
		return fmt.Errorf("operation %s has a null result", o.ID)
	}
	if o.Error != nil {
		_, retry, ok := wire.CodeInfo(o.Error.Code)
		switch {
		case !ok:
			return fmt.Errorf("operation %s error code %q is not a code of the lane", o.ID, o.Error.Code)
		case o.Error.Retryable && !retry:
			return fmt.Errorf("operation %s error %q says retryable, and the lane's code is not", o.ID, o.Error.Code)
		case o.Error.Message == "":
			return fmt.Errorf("operation %s error %q has no message", o.ID, o.Error.Code)
		}
	}
	return nil
}

// TerminalError turns a terminal operation error into a *HostError.
func (o *Operation) TerminalError() error {
	if o.Error == nil {
		return nil
	}
	e := &wire.Error{Code: o.Error.Code, Message: o.Error.Message, Retryable: o.Error.Retryable}
	if o.Error.HostCode != nil {
		e.HostCode = *o.Error.HostCode
	}
	return &HostError{Status: o.Error.Code.Status(), Env: e, Operation: o.ID}
}

func decodeAccepted(body []byte) (*Operation, error) {
	var doc struct {
		Operation *Operation `json:"operation"`
	}
	if err := wire.DecodeStrict(body, &doc); err != nil {
		return nil, fmt.Errorf("202 answer: %w", err)
	}
	if doc.Operation == nil {
		return nil, errors.New("202 answer has no operation")
	}
	if err := doc.Operation.validate(); err != nil {
		return nil, err
	}
	return doc.Operation, nil
}

// GetOperation reads an operation once. retryAfter is the answer's Retry-After.
func (c *Client) GetOperation(ctx context.Context, id string) (op *Operation, retryAfter time.Duration, err error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return nil, 0, err
	}
	resp, err := c.get(ctx, d.Operations+"/"+url.PathEscape(id))
	if err != nil {
		return nil, 0, err
	}
	if resp.Status != 200 {
		return nil, 0, &ProtocolError{Status: resp.Status, Reason: "operation read must answer 200"}
	}
	var o Operation
	if err := wire.DecodeStrict(resp.Body, &o); err != nil {
		return nil, 0, &ProtocolError{Status: resp.Status, Reason: "operation: " + err.Error()}
	}
	if err := o.validate(); err != nil {
		return nil, 0, &ProtocolError{Status: resp.Status, Reason: err.Error()}
	}
	if o.ID != id {
		return nil, 0, &ProtocolError{Status: resp.Status, Reason: fmt.Sprintf("asked for operation %s, got %s", id, o.ID)}
	}
	return &o, parseRetryAfter(resp.Header.Get(wire.HeaderRetryAfter)), nil
}

// Poll reads the operation until it is terminal or ctx ends. It returns the last
// operation seen (never nil when err is a deadline after at least one answer).
func (c *Client) Poll(ctx context.Context, op *Operation) (*Operation, error) {
	last := op
	wait := c.backoff(0)
	for attempt := 1; !last.Done; attempt++ {
		if err := sleep(ctx, wait); err != nil {
			return last, err
		}
		next, ra, err := c.GetOperation(ctx, last.ID)
		if err != nil {
			if ctx.Err() != nil {
				return last, ctx.Err()
			}
			return last, err
		}
		if next.HostUID() == "" && last.HostUID() != "" {
			next.Target = last.Target
		}
		last = next
		wait = ra
		if wait == 0 {
			wait = c.backoff(attempt)
		}
	}
	return last, nil
}

// ResultResource decodes an apply operation's terminal result {"resource": …}.
func (o *Operation) ResultResource() (*Resource, error) {
	var doc struct {
		Resource json.RawMessage `json:"resource"`
	}
	if err := wire.DecodeStrict(o.Result, &doc); err != nil {
		return nil, fmt.Errorf("operation %s result: %w", o.ID, err)
	}
	if doc.Resource == nil {
		return nil, fmt.Errorf("operation %s result has no resource", o.ID)
	}
	return DecodeResource(doc.Resource)
}
