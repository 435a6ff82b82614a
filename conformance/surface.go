package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// formSupport is a FormSupport profile read loosely, for applicability only (the
// support checks decode it strictly).
type formSupport struct {
	FormRef           wire.FormRef              `json:"formRef"`
	Operations        []string                  `json:"operations"`
	SupportedEnums    map[string][]string       `json:"supportedEnums"`
	SupportedRanges   map[string]map[string]any `json:"supportedRanges"`
	SupportedBindings []string                  `json:"supportedBindings"`
	Limits            map[string]int64          `json:"limits"`
}

// Surface is what the host claims, read once before the checks run (docs/guides/conformance.md).
type Surface struct {
	Features   map[string]bool
	Profiles   map[wire.FormRef]*formSupport // nil when the support listing was unreadable
	SupportErr error                         // why the listing was unreadable
	Forms      []*catalog.Form               // catalog Forms the host installs, catalog order
	Foreign    []wire.FormRef                // installed FormRefs the runner's catalog does not know
	Interfaces map[string]bool               // "name@version" → implemented
	Bindings   map[string]bool
	Probes     bool // the host honours the probe header
}

// readSurface asks the host what it claims: discovery, the support listing (or, when
// that is unreadable, the forms availability probe per catalog Form), each contract
// route, and whether probes are honoured.
func readSurface(ctx context.Context, c *Client, cat *catalog.Catalog) (*Surface, error) {
	s := &Surface{Features: map[string]bool{}, Interfaces: map[string]bool{}, Bindings: map[string]bool{}}
	r, err := c.Do(ctx, Req{Method: http.MethodGet, Target: DiscoveryPath})
	if err != nil {
		return nil, err
	}
	if r.Status != http.StatusOK {
		return nil, fmt.Errorf("discovery %s answered %s; check --endpoint and the token variable", DiscoveryPath, r.Got())
	}
	var disc struct {
		Features map[string]bool `json:"features"`
	}
	if err := json.Unmarshal(r.Body, &disc); err != nil {
		return nil, fmt.Errorf("discovery document does not decode: %v", err)
	}
	s.Features = disc.Features

	r, err = c.Do(ctx, Req{Method: http.MethodGet, Target: API + "/support/forms"})
	if err != nil {
		return nil, err
	}
	var list struct {
		Profiles []*formSupport `json:"profiles"`
	}
	if r.Status == http.StatusOK && json.Unmarshal(r.Body, &list) == nil {
		s.Profiles = map[wire.FormRef]*formSupport{}
		for _, p := range list.Profiles {
			s.Profiles[p.FormRef] = p
		}
	} else {
		s.SupportErr = fmt.Errorf("GET %s/support/forms answered %s", API, r.Got())
	}
	for _, f := range cat.Forms() {
		if s.Profiles != nil {
			if _, ok := s.Profiles[f.Ref]; ok {
				s.Forms = append(s.Forms, f)
			}
			continue
		}
		ok, err := formAvailable(ctx, c, f.Ref)
		if err != nil {
			return nil, err
		}
		if ok {
			s.Forms = append(s.Forms, f)
		}
	}
	for ref := range s.Profiles {
		if _, ok := cat.Form(ref); !ok {
			s.Foreign = append(s.Foreign, ref)
		}
	}
	sort.Slice(s.Foreign, func(i, j int) bool { return s.Foreign[i].String() < s.Foreign[j].String() })
	for _, in := range cat.Interfaces() {
		r, err := c.Do(ctx, Req{Method: http.MethodGet, Target: API + "/support/interfaces/" + in.Ref.Name + "/" + in.Ref.Version})
		if err != nil {
			return nil, err
		}
		s.Interfaces[in.Ref.Name+"@"+in.Ref.Version] = implemented(r)
	}
	for _, b := range cat.Bindings() {
		r, err := c.Do(ctx, Req{Method: http.MethodGet, Target: API + "/support/bindings/" + b.Ref.Name + "/" + b.Ref.Version})
		if err != nil {
			return nil, err
		}
		s.Bindings[b.Ref.Name+"@"+b.Ref.Version] = implemented(r)
	}
	r, err = c.Do(ctx, Req{Method: http.MethodGet, Target: DiscoveryPath, Header: map[string]string{ProbeHeader: "error:policy_denied"}})
	if err != nil {
		return nil, err
	}
	s.Probes = r.Code() == wire.CodePolicyDenied
	return s, nil
}

// formAvailable asks the forms availability probe whether ref is installed.
func formAvailable(ctx context.Context, c *Client, ref wire.FormRef) (bool, error) {
	r, err := c.Do(ctx, Req{Method: http.MethodGet, Target: API + "/forms?" + wire.ExactQuery("conformance", ref).Encode()})
	if err != nil {
		return false, err
	}
	return r.Status == http.StatusOK && !jsonEmptyForms(r.Body), nil
}

// jsonEmptyForms says whether b lists no Form: an empty list, or no JSON at all.
func jsonEmptyForms(b []byte) bool {
	var v struct {
		Forms []json.RawMessage `json:"forms"`
	}
	return json.Unmarshal(b, &v) != nil || len(v.Forms) == 0
}

// Operations returns what the host offers for f: its profile's operations, or the
// Definition's capabilities when the host publishes no listing.
func (s *Surface) Operations(f *catalog.Form) []string {
	if s.Profiles != nil {
		if p, ok := s.Profiles[f.Ref]; ok && len(p.Operations) > 0 {
			return p.Operations
		}
	}
	return f.Capabilities
}

// Offers reports whether the host installs f and offers every named operation.
func (s *Surface) Offers(f *catalog.Form, ops ...string) bool {
	have := s.Operations(f)
	for _, op := range ops {
		if !slices.Contains(have, op) {
			return false
		}
	}
	return true
}

// Installed reports whether the host installs the exact ref.
func (s *Surface) Installed(ref wire.FormRef) (*catalog.Form, bool) {
	for _, f := range s.Forms {
		if f.Ref == ref {
			return f, true
		}
	}
	return nil, false
}

// foreignNote tells the reader when the host serves Forms the runner cannot probe.
func (s *Surface) foreignNote() string {
	if len(s.Foreign) == 0 {
		return ""
	}
	return fmt.Sprintf(" (the host also installs %d FormRefs the runner's catalog does not know, e.g. %s; pass --catalog DIR with the host's catalog)", len(s.Foreign), s.Foreign[0])
}

// implemented reads a contract support route the way clients must (docs/protocol.md#support): only resource_not_found says "not implemented"; any other failure means
// the host could not decide, so the contract is assumed and checks that use it run.
func implemented(r *Resp) bool { return r.Code() != wire.CodeResourceNotFound }
