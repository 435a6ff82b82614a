package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// CheckEnvironmentNamespace is docs/protocol.md#aggregate: within one resource the keys of the json-map
// fields and the entries of the string-list/set fields named in nameFields (for the
// family: "vars" and "requiredSensitiveVars") and the name member of every entry of
// every binding-list field (derived from the Form) form one case-sensitive namespace.
// The first repeated name is refused (invalid_argument) naming it and both pointers.
func CheckEnvironmentNamespace(form *catalog.Form, spec map[string]any, nameFields []string) *Refusal {
	seen := map[string]string{}
	add := func(name, ptr string) *Refusal {
		if first, dup := seen[name]; dup {
			return invalid(ptr, "%s: name %q is already used at %s; var keys, sensitive var names and binding names share one "+
				"case-sensitive namespace, so give each a distinct name", ptr, name, first)
		}
		seen[name] = ptr
		return nil
	}
	for _, f := range form.Fields {
		v, ok := spec[f.Wire]
		if !ok {
			continue
		}
		base := "/" + wire.EscapePointerToken(f.Wire)
		switch {
		case f.Kind == catalog.FieldBindingList:
			items, _ := v.([]any)
			member := entryNameMember(&f)
			for i, it := range items {
				obj, _ := it.(map[string]any)
				if name, ok := obj[member].(string); ok {
					if r := add(name, fmt.Sprintf("%s/%d/%s", base, i, wire.EscapePointerToken(member))); r != nil {
						return r
					}
				}
			}
		case slices.Contains(nameFields, f.Wire):
			switch c := v.(type) {
			case map[string]any:
				keys := make([]string, 0, len(c))
				for k := range c {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					if r := add(k, base+"/"+wire.EscapePointerToken(k)); r != nil {
						return r
					}
				}
			case []any:
				for i, e := range c {
					if s, ok := e.(string); ok {
						if r := add(s, fmt.Sprintf("%s/%d", base, i)); r != nil {
							return r
						}
					}
				}
			}
		}
	}
	return nil
}

// EndpointAddress is hostsim's host-assigned address of an endpoint (docs/protocol.md#outputs): "e" + the first 16 hex characters of sha256(uid) + "." + domain, and its URL
// "https://<hostname>/". It depends on the uid only, so it never changes for the uid's life.
func EndpointAddress(uid, domain string) (hostname, url string) {
	sum := sha256.Sum256([]byte(uid))
	hostname = "e" + hex.EncodeToString(sum[:])[:16] + "." + strings.TrimSuffix(strings.ToLower(domain), ".")
	return hostname, "https://" + hostname + "/"
}

// ClaimTaken is the invalid_argument refusal of a claim another live resource holds
// (one custom domain per canonical hostname per tenant, one endpoint per worker, one
// consumer per queue): claim says what is claimed, holder who holds it.
func ClaimTaken(pointer, claim, holder string) *Refusal {
	return invalid(pointer, "%s: %s is already claimed by %s; only one may hold it, so delete that one first or choose another",
		pointer, claim, holder)
}

// QueueEdge is the dead-letter edge Queue → DeadLetter of one live consumer (uids).
type QueueEdge struct {
	Queue, DeadLetter string
}

// DeadLetterPath reports whether the candidate's dead letter leads back to its queue
// (docs/protocol.md#aggregate): with an edge Q → D for every live consumer (live must exclude the candidate
// consumer's own stored edge), a walk from the candidate's D that reaches its Q — D = Q
// included — is a cycle. The candidate's own edge Q → D is the cycle's last step, not
// part of the walk: it leaves Q, where the walk ends. Each uid is visited once; any
// in-degree. It returns the uids walked from D to Q when there is a cycle.
func DeadLetterPath(live []QueueEdge, candidate QueueEdge) ([]string, bool) {
	next := map[string][]string{}
	for _, e := range live {
		next[e.Queue] = append(next[e.Queue], e.DeadLetter)
	}
	parent := map[string]string{candidate.DeadLetter: ""}
	queue := []string{candidate.DeadLetter}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u == candidate.Queue {
			var path []string
			for at := u; at != ""; at = parent[at] {
				path = append([]string{at}, path...)
			}
			return path, true
		}
		for _, v := range next[u] {
			if _, seen := parent[v]; !seen {
				parent[v] = u
				queue = append(queue, v)
			}
		}
	}
	return nil, false
}

// CheckDeadLetter refuses (invalid_argument at pointer) a candidate whose dead letter
// leads back to its queue; names maps uids to display names for the message.
func CheckDeadLetter(pointer string, live []QueueEdge, candidate QueueEdge, names map[string]string) *Refusal {
	path, cycle := DeadLetterPath(live, candidate)
	if !cycle {
		return nil
	}
	shown := []string{display(candidate.Queue, names)}
	for _, u := range path {
		shown = append(shown, display(u, names))
	}
	return invalid(pointer, "%s: dead-letter queue %s leads back to queue %s (%s); a dead-letter chain must not form a cycle, "+
		"so choose a dead-letter queue that does not feed this queue", pointer, display(candidate.DeadLetter, names),
		display(candidate.Queue, names), strings.Join(shown, " → "))
}

func display(uid string, names map[string]string) string {
	if n, ok := names[uid]; ok {
		return fmt.Sprintf("%q", n)
	}
	return "uid " + uid
}
