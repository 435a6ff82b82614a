package surface

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/takokit/takokit/catalog"
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

// commercial adds the "price" member support.commercial injects.
func commercial(doc map[string]any, priced bool) map[string]any {
	if priced {
		doc["price"] = map[string]any{"amount": "0.10", "currency": "USD", "per": "hour"}
	}
	return doc
}
