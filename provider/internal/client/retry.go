package client

import (
	"context"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

const (
	backoffBase = 250 * time.Millisecond
	backoffCap  = 15 * time.Second
	// maxAttempts bounds retries of retryable host errors.
	maxAttempts = 3
)

// jitterBackoff is full-jitter exponential backoff (base 250 ms doubling, cap 15 s).
func jitterBackoff(attempt int) time.Duration {
	d := backoffBase << attempt
	if d > backoffCap || d <= 0 {
		d = backoffCap
	}
	return time.Duration(rand.Int64N(int64(d) + 1))
}

// retryable reports the four retryable codes with retryable:true. A HostError's
// status is always its code's (refusal validates the envelope against the status
// it came with; an Operation's terminal error takes the code's), so it is not
// compared again.
func retryable(err error) (*HostError, bool) {
	h, ok := AsHost(err)
	if !ok || !h.Env.Retryable {
		return nil, false
	}
	switch h.Env.Code {
	case wire.CodeResourceBusy, wire.CodeBackendUnavailable, wire.CodeRateLimited, wire.CodeDeadlineExceeded:
		return h, true
	}
	return nil, false
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// exchange sends r and classifies the answer: a 2xx answer is returned, anything
// else is an error. Retryable host errors are retried (same bytes) up to three
// attempts in all. resendOnTransport allows exactly one byte-identical resend after
// a transport failure (mutations, docs/provider-design.md#lifecycle); GETs pass it too (retried once).
func (c *Client) exchange(ctx context.Context, r Request, resendOnTransport bool) (*Response, error) {
	resent := false
	for attempt := 0; ; attempt++ {
		resp, err := c.do(ctx, r)
		if err == nil && resp.Status >= 200 && resp.Status < 300 {
			return resp, nil
		}
		if err == nil {
			err = refusal(resp)
		}
		if IsTransport(err) {
			if resendOnTransport && !resent && ctx.Err() == nil {
				resent = true
				attempt--
				continue
			}
			return nil, err
		}
		h, ok := retryable(err)
		if !ok || attempt+1 >= maxAttempts {
			return nil, err
		}
		wait := h.RetryAfter
		if wait == 0 {
			wait = c.backoff(attempt)
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return nil, err
		}
		if serr := sleep(ctx, wait); serr != nil {
			return nil, err
		}
	}
}

// get is a GET with one retry after a transport failure.
func (c *Client) get(ctx context.Context, u string) (*Response, error) {
	return c.exchange(ctx, Request{Method: http.MethodGet, URL: u}, true)
}
