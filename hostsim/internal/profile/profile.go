// Package profile reads hostsim support profiles (docs/guides/partial-hosts.md): built-in or
// file documents, merged through "extends", and resolved against a catalog.
package profile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// Profile is one merged profile document. Omitted members mean "no statement".
type Profile struct {
	Name            string                         `json:"name,required"`
	Description     string                         `json:"description,omitempty"`
	Extends         string                         `json:"extends,omitempty"`
	Forms           *Selection                     `json:"forms,omitempty"`
	Operations      map[string][]string            `json:"operations,omitempty"`
	Interfaces      *Selection                     `json:"interfaces,omitempty"`
	Bindings        *Selection                     `json:"bindings,omitempty"`
	SupportedEnums  map[string]map[string][]string `json:"supportedEnums,omitempty"`
	SupportedRanges map[string]map[string]Range    `json:"supportedRanges,omitempty"`
	Limits          map[string]map[string]int64    `json:"limits,omitempty"`
	Endpoints       *Endpoints                     `json:"endpoints,omitempty"`
	Async           *Async                         `json:"async,omitempty"`
	Support         string                         `json:"support,omitempty"`
	Faults          []fault.Spec                   `json:"faults,omitempty"`

	// Doc is the merged document exactly as `hostsim profile show` prints it.
	Doc map[string]any `json:"-"`
	// files are the profile files merged into Doc (built-ins are not listed),
	// parent first, for CheckCatalog to name the file and line of a typo.
	files []file
}

// file is one profile file as written: its path, bytes and own document.
type file struct {
	path string
	data []byte
	doc  map[string]any
}

// Selection chooses what is installed: include (when present), then exclude.
type Selection struct {
	Include []string `json:"include,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
}

// Range is an inclusive bound; members are integers or strings.
type Range struct {
	Minimum json.RawMessage `json:"minimum,omitempty"`
	Maximum json.RawMessage `json:"maximum,omitempty"`
}

// Endpoints says whether the host assigns endpoint addresses, and under which domain.
type Endpoints struct {
	Assign *bool  `json:"assign,omitempty"`
	Domain string `json:"domain,omitempty"`
}

// Async makes kinds answer mutations with 202.
type Async struct {
	Kinds              []string        `json:"kinds,omitempty"`
	CompleteAfterPolls json.RawMessage `json:"completeAfterPolls,omitempty"`
}

// SupportMode is the parsed "support" member.
type SupportMode struct {
	Mode  string // served | unavailable | slow | silent
	Delay time.Duration
}

// Support parses the support member (default served).
func (p *Profile) SupportMode() SupportMode {
	s := p.Support
	if d, ok := strings.CutPrefix(s, "slow:"); ok {
		dur, _ := time.ParseDuration(d)
		return SupportMode{Mode: "slow", Delay: dur}
	}
	if s == "" {
		s = "served"
	}
	return SupportMode{Mode: s}
}

// CompleteAfter is the number of polls until an async operation commits; -1 = never.
func (p *Profile) CompleteAfter() int64 {
	if p.Async == nil || len(p.Async.CompleteAfterPolls) == 0 {
		return 2
	}
	n, err := strconv.ParseInt(string(p.Async.CompleteAfterPolls), 10, 64)
	if err != nil {
		return -1 // "never" (validated at load)
	}
	return n
}

// Domain is the endpoint domain suffix.
func (p *Profile) Domain() string {
	if p.Endpoints == nil || p.Endpoints.Domain == "" {
		return "endpoints.sim.takokit.test"
	}
	return p.Endpoints.Domain
}

// AssignsEndpoints reports whether Forms with host-assigned outputs are installed.
func (p *Profile) AssignsEndpoints() bool {
	return p.Endpoints == nil || p.Endpoints.Assign == nil || *p.Endpoints.Assign
}

// check validates what the struct types cannot: modes, counts, faults.
func (p *Profile) check() error {
	if p.Name == "" {
		return fmt.Errorf("/name: a profile needs a non-empty name")
	}
	switch m := p.SupportMode(); m.Mode {
	case "served", "unavailable", "silent":
	case "slow":
		if d, err := time.ParseDuration(strings.TrimPrefix(p.Support, "slow:")); err != nil || d < 0 {
			return fmt.Errorf("/support: %q is not slow:<duration> such as slow:2s", p.Support)
		}
	default:
		return fmt.Errorf("/support: %q is not one of served, unavailable, silent, slow:<duration>", p.Support)
	}
	if p.Async != nil && len(p.Async.CompleteAfterPolls) > 0 {
		raw := string(p.Async.CompleteAfterPolls)
		if n, err := strconv.ParseInt(raw, 10, 64); (err != nil || n < 1) && raw != `"never"` {
			return fmt.Errorf("/async/completeAfterPolls: %s is neither a positive integer nor \"never\"", raw)
		}
	}
	for kind, ranges := range p.SupportedRanges {
		for field, r := range ranges {
			for _, b := range []json.RawMessage{r.Minimum, r.Maximum} {
				if len(b) > 0 && !isIntOrString(b) {
					return fmt.Errorf("/supportedRanges/%s/%s: bounds are integers or strings, got %s", kind, field, b)
				}
			}
		}
	}
	for kind, lim := range p.Limits {
		for k, v := range lim {
			if v < 0 {
				return fmt.Errorf("/limits/%s/%s: %d is negative", kind, k, v)
			}
		}
	}
	for i, f := range p.Faults {
		if err := f.Validate(); err != nil {
			return fmt.Errorf("/faults/%d: %v", i, err)
		}
	}
	return nil
}

func isIntOrString(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return true
	}
	_, err := strconv.ParseInt(string(b), 10, 64)
	return err == nil
}

// decode checks one document (strict JSON, closed members).
func decode(data []byte) (*Profile, map[string]any, error) {
	var p Profile
	if err := wire.DecodeStrict(data, &p); err != nil {
		return nil, nil, err
	}
	var doc map[string]any
	if err := wire.DecodeNumbers(data, &doc); err != nil {
		return nil, nil, err
	}
	return &p, doc, nil
}
