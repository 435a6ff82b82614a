package surface

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// What the support faults (docs/protocol.md#faults) do to a support answer.

// omitted matches the Form whose profile support.omit-profile withholds: the
// kind its value names, or the first installed Form.
func (s *Surface) omitted(f *catalog.Form) func(string) bool {
	return func(v string) bool {
		if v != "" {
			return v == f.Ref.Kind
		}
		forms := s.Host.Forms()
		return len(forms) > 0 && forms[0] == f
	}
}

// named matches a contract fault whose value names the contract, or is empty (every contract).
func named(name string) func(string) bool {
	return func(v string) bool { return v == "" || v == name }
}

// otherDigest is a well-formed schemaDigest that is not d: the contract the
// host claims to implement under the same name and version.
func otherDigest(d string) string {
	sum := sha256.Sum256([]byte("hostsim fault: another contract than " + d))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// compatibility adds what support.compatibility-date and
// support.compatibility-flags inject into the FormSupport profile of kind: a
// runtime compatibility statement, which a host must never make (the runtime
// is fixed by its contract's digest; docs/protocol.md#support). The profile's
// own maps are copied, never changed.
func compatibility(doc map[string]any, kind string, fs *fault.Set) map[string]any {
	if _, ok := fs.Where(fault.SupportCompatDate, named(kind)); ok {
		doc["supportedRanges"] = withMember(doc["supportedRanges"], "compatibilityDate", map[string]any{"minimum": "2024-01-01"})
	}
	if _, ok := fs.Where(fault.SupportCompatFlags, named(kind)); ok {
		doc["supportedEnums"] = withMember(doc["supportedEnums"], "compatibilityFlags", []string{"nodejs_compat"})
	}
	return doc
}

// withMember is a copy of the JSON object m (nil: an empty one) with k set to v.
func withMember(m any, k string, v any) map[string]any {
	out := map[string]any{}
	if m != nil {
		b, _ := json.Marshal(m)
		_ = json.Unmarshal(b, &out)
	}
	out[k] = v
	return out
}

// commercial adds the "price" member support.commercial injects.
func commercial(doc map[string]any, priced bool) map[string]any {
	if priced {
		doc["price"] = map[string]any{"amount": "0.10", "currency": "USD", "per": "hour"}
	}
	return doc
}
