package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/lazyre"
)

// SupportProfile is a validated support profile (docs/provider-design.md#plan-time-support).
type SupportProfile struct {
	APIVersion        string                  `json:"apiVersion"`
	Kind              string                  `json:"kind"`
	FormRef           *wire.FormRef           `json:"formRef,omitempty"`
	InterfaceRef      *wire.InterfaceRef      `json:"interfaceRef,omitempty"`
	BindingRef        *wire.BindingRef        `json:"bindingRef,omitempty"`
	Operations        []string                `json:"operations,omitempty"`
	SupportedEnums    map[string][]string     `json:"supportedEnums,omitempty"`
	SupportedRanges   map[string]SupportRange `json:"supportedRanges,omitempty"`
	SupportedBindings []string                `json:"supportedBindings,omitempty"`
	Limits            map[string]json.Number  `json:"limits,omitempty"`
}

// SupportRange bounds a value inclusively; either bound may be absent, and a
// string bound (a date) is ignored for integer fields.
type SupportRange struct {
	Minimum json.RawMessage `json:"minimum,omitempty"`
	Maximum json.RawMessage `json:"maximum,omitempty"`
}

// SupportAnswer is what one support route decided: a profile, or a refusal
// (a valid form_unknown / resource_not_found envelope). Anything else is an error
// ("undecided").
type SupportAnswer struct {
	Profile *SupportProfile
	Refusal *HostError
}

// SupportDeadline bounds all support reads of one resource's plan.
const SupportDeadline = 30 * time.Second

// supportRetryWait is the pause before the one retry of a failed support read, unless
// the host's Retry-After names another.
const supportRetryWait = 250 * time.Millisecond

type supportCall struct {
	done chan struct{}
	ans  *SupportAnswer
	err  error
}

type supportCache struct {
	mu       sync.Mutex
	answers  map[string]*SupportAnswer
	inflight map[string]*supportCall
}

var (
	supportKeyRe = lazyre.New(`^[a-z][a-zA-Z0-9]{0,63}(\.[a-z][a-zA-Z0-9]{0,63})*$`)
	supportOps   = []string{"create", "read", "update", "delete", "import", "observe", "refresh"}
)

// FormSupport reads the Form profile of ref's group, kind and definition version.
func (c *Client) FormSupport(ctx context.Context, ref wire.FormRef) (*SupportAnswer, error) {
	group, version, _ := strings.Cut(ref.APIVersion, "/")
	p := "/forms/" + group + "/" + version + "/" + ref.Kind + "/" + ref.DefinitionVersion
	return c.support(ctx, p, func(sp *SupportProfile) error {
		if sp.Kind != "FormSupport" || sp.FormRef == nil || sp.InterfaceRef != nil || sp.BindingRef != nil {
			return fmt.Errorf("a FormSupport profile with a formRef was expected")
		}
		if sp.FormRef.APIVersion != ref.APIVersion || sp.FormRef.Kind != ref.Kind || sp.FormRef.DefinitionVersion != ref.DefinitionVersion {
			return fmt.Errorf("the profile names %s, not the requested Form", sp.FormRef)
		}
		if sp.Operations == nil {
			return fmt.Errorf("operations is required in a FormSupport profile")
		}
		return nil
	})
}

// InterfaceSupport reads the profile of one Interface.
func (c *Client) InterfaceSupport(ctx context.Context, name, version string) (*SupportAnswer, error) {
	return c.support(ctx, "/interfaces/"+name+"/"+version, func(sp *SupportProfile) error {
		if sp.Kind != "InterfaceSupport" || sp.InterfaceRef == nil || sp.FormRef != nil || sp.BindingRef != nil {
			return fmt.Errorf("an InterfaceSupport profile with an interfaceRef was expected")
		}
		if sp.InterfaceRef.Name != name || sp.InterfaceRef.Version != version {
			return fmt.Errorf("the profile names %s, not %s@%s", sp.InterfaceRef, name, version)
		}
		return nil
	})
}

// BindingSupport reads the profile of one Binding.
func (c *Client) BindingSupport(ctx context.Context, name, version string) (*SupportAnswer, error) {
	return c.support(ctx, "/bindings/"+name+"/"+version, func(sp *SupportProfile) error {
		if sp.Kind != "BindingSupport" || sp.BindingRef == nil || sp.FormRef != nil || sp.InterfaceRef != nil {
			return fmt.Errorf("a BindingSupport profile with a bindingRef was expected")
		}
		if sp.BindingRef.Name != name || sp.BindingRef.Version != version {
			return fmt.Errorf("the profile names %s, not %s@%s", sp.BindingRef, name, version)
		}
		return nil
	})
}

// SupportedFormVersions lists the definition versions of (apiVersion, kind) the
// host's listing offers. Read only after a refusal; cached like a route.
func (c *Client) SupportedFormVersions(ctx context.Context, apiVersion, kind string) ([]string, error) {
	ans, err := c.cached(ctx, "/forms", func(ctx context.Context) (*SupportAnswer, error) {
		base, err := c.supportBase(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := c.get(ctx, base+"/forms")
		if err != nil {
			return nil, err
		}
		var doc struct {
			Profiles []json.RawMessage `json:"profiles"`
		}
		if err := wire.DecodeStrict(resp.Body, &doc); err != nil {
			return nil, &ProtocolError{Status: resp.Status, Reason: "support listing: " + err.Error()}
		}
		// the listing is kept as one synthetic profile whose operations are the refs
		list := &SupportProfile{}
		for _, raw := range doc.Profiles {
			sp, err := decodeProfile(raw)
			if err == nil && sp.FormRef != nil {
				list.Operations = append(list.Operations, sp.FormRef.APIVersion+" "+sp.FormRef.Kind+" "+sp.FormRef.DefinitionVersion)
			}
		}
		return &SupportAnswer{Profile: list}, nil
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ans.Profile.Operations {
		parts := strings.Split(e, " ")
		if len(parts) == 3 && parts[0] == apiVersion && parts[1] == kind {
			out = append(out, parts[2])
		}
	}
	return out, nil
}

func (c *Client) supportBase(ctx context.Context) (string, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return "", err
	}
	return d.Support, nil
}

// support reads one route through the cache; answers (profiles and refusals) are
// cached, failures are not. A failure is retried once inside the caller's budget.
func (c *Client) support(ctx context.Context, route string, check func(*SupportProfile) error) (*SupportAnswer, error) {
	ans, err := c.cached(ctx, route, func(ctx context.Context) (*SupportAnswer, error) {
		ans, err := c.readSupport(ctx, route, check)
		if err == nil {
			return ans, nil
		}
		wait := c.supportRetryWait
		if h, ok := AsHost(err); ok && h.RetryAfter > 0 {
			wait = h.RetryAfter
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return nil, err
		}
		if sleep(ctx, wait) != nil {
			return nil, err
		}
		return c.readSupport(ctx, route, check)
	})
	if err != nil {
		return nil, &SupportReadError{Route: c.supportRoute(route, err), Err: err}
	}
	return ans, nil
}

// supportRoute is the request a failed support read stopped at: discovery, or the route.
func (c *Client) supportRoute(route string, err error) string {
	var de *DiscoveryError
	c.mu.Lock()
	d := c.disc
	c.mu.Unlock()
	if errors.As(err, &de) || d == nil {
		return "GET " + c.lane.DiscoveryPath
	}
	base := d.Support
	if u, perr := url.Parse(base + route); perr == nil {
		return "GET " + u.EscapedPath()
	}
	return "GET " + base + route
}

func (c *Client) readSupport(ctx context.Context, route string, check func(*SupportProfile) error) (*SupportAnswer, error) {
	base, err := c.supportBase(ctx)
	if err != nil {
		return nil, err
	}
	resp, err := c.do(ctx, Request{Method: http.MethodGet, URL: base + route})
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusOK {
		rerr := refusal(resp)
		if h, ok := AsHost(rerr); ok && (h.Env.Code == wire.CodeFormUnknown || h.Env.Code == wire.CodeResourceNotFound) {
			return &SupportAnswer{Refusal: h}, nil
		}
		return nil, rerr
	}
	sp, err := decodeProfile(resp.Body)
	if err == nil {
		err = check(sp)
	}
	if err != nil {
		return nil, &ProtocolError{Status: resp.Status, Reason: "support profile " + route + ": " + err.Error()}
	}
	return &SupportAnswer{Profile: sp}, nil
}

func (c *Client) cached(ctx context.Context, key string, fetch func(context.Context) (*SupportAnswer, error)) (*SupportAnswer, error) {
	sc := &c.supportCache
	sc.mu.Lock()
	if a, ok := sc.answers[key]; ok {
		sc.mu.Unlock()
		return a, nil
	}
	if call, ok := sc.inflight[key]; ok {
		sc.mu.Unlock()
		select {
		case <-call.done:
			return call.ans, call.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if sc.inflight == nil {
		sc.inflight, sc.answers = map[string]*supportCall{}, map[string]*SupportAnswer{}
	}
	call := &supportCall{done: make(chan struct{})}
	sc.inflight[key] = call
	sc.mu.Unlock()
	call.ans, call.err = fetch(ctx)
	sc.mu.Lock()
	if call.err == nil {
		sc.answers[key] = call.ans
	}
	delete(sc.inflight, key)
	sc.mu.Unlock()
	close(call.done)
	return call.ans, call.err
}

// decodeProfile decodes and checks the closed profile shape (with dotted keys allowed).
func decodeProfile(raw []byte) (*SupportProfile, error) {
	var sp SupportProfile
	if err := wire.DecodeStrict(raw, &sp); err != nil {
		return nil, err
	}
	if err := checkProfileShape(raw, &sp); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, op := range sp.Operations {
		if !slices.Contains(supportOps, op) || seen[op] {
			return nil, fmt.Errorf("operations holds %q twice or outside the lifecycle vocabulary", op)
		}
		seen[op] = true
	}
	for k, list := range sp.SupportedEnums {
		if !supportKeyRe.MatchString(k) || len(list) == 0 {
			return nil, fmt.Errorf("supportedEnums[%q] is not a non-empty list under a field key", k)
		}
		uniq := map[string]bool{}
		for _, v := range list {
			if uniq[v] || len([]rune(v)) > 128 {
				return nil, fmt.Errorf("supportedEnums[%q] repeats or overlong value %q", k, v)
			}
			uniq[v] = true
		}
	}
	// checkProfileShape has already held the apiVersion, every range bound (an
	// integer or a string) and every limit (a key without dots, an integer from 0 to
	// 2^63-1); what is left here is the field keys of ranges
	for k := range sp.SupportedRanges {
		if !supportKeyRe.MatchString(k) {
			return nil, fmt.Errorf("supportedRanges key %q is not a field key", k)
		}
	}
	return &sp, nil
}
