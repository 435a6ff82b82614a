package client

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/lazyre"
)

// The parts of the published support-profile schema (docs/provider-design.md#plan-time-support) that a
// strict decode into SupportProfile cannot express: member types, the exact-ref
// grammars, key grammars and the supportedBindings rules. An answer that breaks
// one is unusable ("undecided", docs/provider-design.md#plan-time-support), never a refusal: a missing or
// malformed schemaDigest must not read as "implemented at another digest".

const (
	profileAPIVersion = "support.takoform.com/v1alpha1"
	maxSupportedRefs  = 256
)

var (
	// limitKeyRe is the published key grammar; limits take no dotted extension.
	limitKeyRe = lazyre.New(`^[a-z][a-zA-Z0-9]{0,63}$`)
	// bindingDisplayRe is one supportedBindings entry: name@MAJOR.MINOR.PATCH.
	bindingDisplayRe = lazyre.New(`^[a-z][a-z0-9]*(?:[.-][a-z][a-z0-9]*)*@(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)
	maxLimit         = new(big.Int).SetUint64(1<<63 - 1)
)

// checkProfileShape validates raw (already decoded strictly into sp) and rewrites
// every integer it accepts (limits, integer range bounds) to plain decimal text,
// so comparisons read 1e3 and 1000.0 as the integer 1000.
func checkProfileShape(raw []byte, sp *SupportProfile) error {
	var doc map[string]any
	if err := wire.DecodeNumbers(raw, &doc); err != nil {
		return fmt.Errorf("the profile is not a JSON object: %v", err)
	}
	if sp.APIVersion != profileAPIVersion {
		return fmt.Errorf("apiVersion %q is not %s", sp.APIVersion, profileAPIVersion)
	}
	if err := checkProfileRefs(sp); err != nil {
		return err
	}
	if err := checkLimits(doc["limits"], sp); err != nil {
		return err
	}
	if err := checkRangeBounds(sp); err != nil {
		return err
	}
	return checkSupportedBindings(sp.SupportedBindings)
}

// checkProfileRefs requires every member of whichever exact ref the profile carries.
func checkProfileRefs(sp *SupportProfile) error {
	if r := sp.FormRef; r != nil {
		if err := r.Validate(); err != nil {
			return err
		}
	}
	if r := sp.InterfaceRef; r != nil {
		if err := contractRef("interfaceRef", r.APIVersion, wire.InterfaceAPIVersion, r.Name, r.Version, r.SchemaDigest); err != nil {
			return err
		}
	}
	if r := sp.BindingRef; r != nil {
		if err := contractRef("bindingRef", r.APIVersion, wire.BindingAPIVersion, r.Name, r.Version, r.SchemaDigest); err != nil {
			return err
		}
	}
	return nil
}

func contractRef(member, apiVersion, want, name, version, digest string) error {
	switch {
	case apiVersion != want:
		return fmt.Errorf("%s.apiVersion %q is not %s", member, apiVersion, want)
	case name == "" || len(name) > 128:
		return fmt.Errorf("%s.name %q is empty or longer than 128 characters", member, name)
	case !wire.ValidSemver(version) || strings.ContainsAny(version, "-+"):
		return fmt.Errorf("%s.version %q is not MAJOR.MINOR.PATCH", member, version)
	case !wire.ValidDigest(digest):
		return fmt.Errorf("%s.schemaDigest %q is not sha256: followed by 64 lowercase hex digits", member, digest)
	}
	return nil
}

// checkLimits requires JSON integers 0..2^63-1 under undotted keys. The strict
// decode into json.Number also admits a numeric string, which the schema does not.
func checkLimits(member any, sp *SupportProfile) error {
	if member == nil {
		return nil
	}
	m, ok := member.(map[string]any)
	if !ok {
		return fmt.Errorf("limits is not an object")
	}
	for k, v := range m {
		if !limitKeyRe.MatchString(k) {
			return fmt.Errorf("limits key %q does not match ^[a-z][a-zA-Z0-9]{0,63}$", k)
		}
		n, isNum := v.(json.Number)
		if !isNum {
			return fmt.Errorf("limits[%q] is not a JSON integer", k)
		}
		x, ok := exactInteger(string(n))
		if !ok || x.Sign() < 0 || x.Cmp(maxLimit) > 0 {
			return fmt.Errorf("limits[%q] = %s is not an integer from 0 to 9223372036854775807", k, n)
		}
		sp.Limits[k] = json.Number(x.String())
	}
	return nil
}

// checkRangeBounds accepts an integer or a string per bound; integers are normalized.
func checkRangeBounds(sp *SupportProfile) error {
	for k, r := range sp.SupportedRanges {
		for _, b := range []*json.RawMessage{&r.Minimum, &r.Maximum} {
			if len(*b) == 0 {
				continue
			}
			if (*b)[0] == '"' {
				var s string
				if json.Unmarshal(*b, &s) != nil {
					return fmt.Errorf("supportedRanges[%q] bound %s is not a JSON string", k, *b)
				}
				continue
			}
			x, ok := exactInteger(strings.TrimSpace(string(*b)))
			if !ok {
				return fmt.Errorf("supportedRanges[%q] bound %s is neither an integer nor a string", k, *b)
			}
			*b = json.RawMessage(x.String())
		}
		sp.SupportedRanges[k] = r
	}
	return nil
}

// exactInteger reads a JSON number whose value is an integer (1000, 1e3, 1000.0).
func exactInteger(s string) (*big.Int, bool) {
	if s == "" || len(s) > 400 || strings.Trim(s, "-+.0123456789eE") != "" {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		// bound the exponent before big.Rat expands it
		if e, err := strconv.Atoi(s[i+1:]); err != nil || e > 400 || e < -400 {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		return nil, false
	}
	return r.Num(), true
}

func checkSupportedBindings(list []string) error {
	if len(list) > maxSupportedRefs {
		return fmt.Errorf("supportedBindings lists %d entries; at most %d", len(list), maxSupportedRefs)
	}
	sorted := append([]string(nil), list...)
	sort.Strings(sorted)
	for i, b := range sorted {
		if len(b) > 256 || !bindingDisplayRe.MatchString(b) {
			return fmt.Errorf("supportedBindings entry %q is not name@MAJOR.MINOR.PATCH", b)
		}
		if i > 0 && sorted[i-1] == b {
			return fmt.Errorf("supportedBindings lists %q twice", b)
		}
	}
	return nil
}
