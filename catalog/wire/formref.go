// Package wire holds the protocol values a Takoform client and host share: exact
// references, the strict I-JSON gate, RFC 8785 canonical digests, the error envelope
// with its closed code table, and the SpaceID grammar. It is the only copy; every
// takokit module imports it from here.
package wire

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// FormRef names one Form Definition exactly. The four members are one identity key;
// packageDigest is deliberately absent (it is audit evidence, never identity).
type FormRef struct {
	APIVersion        string `json:"apiVersion"`
	Kind              string `json:"kind"`
	DefinitionVersion string `json:"definitionVersion"`
	SchemaDigest      string `json:"schemaDigest"`
}

// String renders the ref the way messages name it: group/Kind@version (digest).
func (r FormRef) String() string {
	return fmt.Sprintf("%s %s@%s (%s)", r.APIVersion, r.Kind, r.DefinitionVersion, r.SchemaDigest)
}

// IsZero reports whether no member is set.
func (r FormRef) IsZero() bool { return r == FormRef{} }

// InterfaceRef names one Interface Definition exactly.
type InterfaceRef struct {
	APIVersion   string `json:"apiVersion"`
	Name         string `json:"name"`
	Version      string `json:"version"`
	SchemaDigest string `json:"schemaDigest"`
}

func (r InterfaceRef) String() string {
	return fmt.Sprintf("%s@%s (%s)", r.Name, r.Version, r.SchemaDigest)
}

// BindingRef names one Binding Definition exactly.
type BindingRef struct {
	APIVersion   string `json:"apiVersion"`
	Name         string `json:"name"`
	Version      string `json:"version"`
	SchemaDigest string `json:"schemaDigest"`
}

func (r BindingRef) String() string {
	return fmt.Sprintf("%s@%s (%s)", r.Name, r.Version, r.SchemaDigest)
}

// Document-type apiVersions that name formats (never Form groups).
const (
	InterfaceAPIVersion = "interfaces.takoform.com/v1alpha1"
	BindingAPIVersion   = "bindings.takoform.com/v1alpha1"
	PackageAPIVersion   = "packages.forms.takoform.com/v1alpha4"
)

// Query keys of the exact-FormRef query (docs/protocol.md#routes).
const (
	QuerySpace             = "space"
	QueryGroup             = "group"
	QueryKind              = "kind"
	QueryDefinitionVersion = "definitionVersion"
	QuerySchemaDigest      = "schemaDigest"
)

var formRefQueryKeys = []string{QueryGroup, QueryKind, QueryDefinitionVersion, QuerySchemaDigest}

// The grammars compile on first use: a process that checks none (a provider that only
// serves its schema) pays nothing for them at start.
var (
	groupRe   = lazyRegexp(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+/v[0-9]+(?:(?:alpha|beta)[0-9]+)?$`)
	semverRe  = lazyRegexp(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-((?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$`)
	ifaceName = lazyRegexp(`^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)*$`)
)

func lazyRegexp(p string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(p) })
}

// ValidGroup reports whether s is a Form group (apiVersion) by the definition grammar.
func ValidGroup(s string) bool {
	return len(s) <= 320 && validGroups.match(s, groupRe())
}

// ValidKind reports whether s is a Form kind (`^[A-Z][A-Za-z0-9]{0,63}$`).
func ValidKind(s string) bool {
	if len(s) < 1 || len(s) > 64 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ValidDigest reports whether s is "sha256:" + 64 lowercase hex digits.
func ValidDigest(s string) bool {
	if len(s) != len(DigestPrefix)+64 || s[:len(DigestPrefix)] != DigestPrefix {
		return false
	}
	for i := len(DigestPrefix); i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// ValidSemver reports whether s is a semantic version 2.0.0 string.
func ValidSemver(s string) bool { return validVersions.match(s, semverRe()) }

// ValidResourceName reports whether s is a resource name (`^[a-z][a-z0-9-]{0,62}$`).
func ValidResourceName(s string) bool {
	if len(s) < 1 || len(s) > 63 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// knownValid remembers, up to a bound, values a costly grammar accepted:
// the few groups and versions a host serves are checked by a map lookup.
type knownValid struct {
	mu sync.RWMutex
	m  map[string]bool
}

var validGroups, validVersions = &knownValid{m: map[string]bool{}}, &knownValid{m: map[string]bool{}}

func (k *knownValid) match(s string, re *regexp.Regexp) bool {
	k.mu.RLock()
	ok := k.m[s]
	k.mu.RUnlock()
	if ok {
		return true
	}
	if !re.MatchString(s) {
		return false
	}
	k.mu.Lock()
	if len(k.m) < 1024 {
		k.m[s] = true
	}
	k.mu.Unlock()
	return true
}

// Validate checks every member's grammar and names the first bad one.
func (r FormRef) Validate() error {
	switch {
	case !ValidGroup(r.APIVersion):
		return fmt.Errorf("formRef apiVersion %q is not a Form group such as edge.forms.takokit.dev/v1alpha1", r.APIVersion)
	case !ValidKind(r.Kind):
		return fmt.Errorf("formRef kind %q must match ^[A-Z][A-Za-z0-9]{0,63}$", r.Kind)
	case !ValidSemver(r.DefinitionVersion):
		return fmt.Errorf("formRef definitionVersion %q is not a semantic version such as 0.1.0", r.DefinitionVersion)
	case !ValidDigest(r.SchemaDigest):
		return fmt.Errorf("formRef schemaDigest %q must be sha256: followed by 64 lowercase hex digits", r.SchemaDigest)
	}
	return nil
}

// Query returns the four FormRef keys of the exact-FormRef query (group, kind,
// definitionVersion, schemaDigest); the caller adds `space` (see ExactQuery).
func (r FormRef) Query() url.Values {
	return url.Values{
		QueryGroup:             {r.APIVersion},
		QueryKind:              {r.Kind},
		QueryDefinitionVersion: {r.DefinitionVersion},
		QuerySchemaDigest:      {r.SchemaDigest},
	}
}

// ExactQuery returns the full five-key query of docs/protocol.md#routes.
func ExactQuery(space string, r FormRef) url.Values {
	q := r.Query()
	q.Set(QuerySpace, space)
	return q
}

// ParseFormRefQuery reads the four FormRef keys. Each must appear exactly once; a key
// other than those four and `space` (notably packageDigest) is refused. `space` is
// neither required nor checked here: ParseExactQuery does both.
func ParseFormRefQuery(q url.Values) (FormRef, error) {
	var extra []string
	for k := range q {
		if k == QuerySpace {
			continue
		}
		if !contains(formRefQueryKeys, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return FormRef{}, fmt.Errorf("query key %q is not part of the exact FormRef; send only space, group, kind, definitionVersion and schemaDigest (packageDigest is never identity)", strings.Join(extra, ", "))
	}
	get := func(k string) (string, error) {
		vs := q[k]
		switch len(vs) {
		case 0:
			return "", fmt.Errorf("query key %q is missing; the exact FormRef needs group, kind, definitionVersion and schemaDigest", k)
		case 1:
			return vs[0], nil
		default:
			return "", fmt.Errorf("query key %q appears %d times; send it exactly once", k, len(vs))
		}
	}
	var r FormRef
	var err error
	if r.APIVersion, err = get(QueryGroup); err != nil {
		return FormRef{}, err
	}
	if r.Kind, err = get(QueryKind); err != nil {
		return FormRef{}, err
	}
	if r.DefinitionVersion, err = get(QueryDefinitionVersion); err != nil {
		return FormRef{}, err
	}
	if r.SchemaDigest, err = get(QuerySchemaDigest); err != nil {
		return FormRef{}, err
	}
	if err := r.Validate(); err != nil {
		return FormRef{}, err
	}
	return r, nil
}

// ParseExactQuery reads all five keys of docs/protocol.md#routes, each exactly once and
// nothing else, and checks the SpaceID grammar.
func ParseExactQuery(q url.Values) (space string, ref FormRef, err error) {
	ref, err = ParseFormRefQuery(q)
	if err != nil {
		return "", FormRef{}, err
	}
	vs := q[QuerySpace]
	if len(vs) != 1 {
		if len(vs) == 0 {
			return "", FormRef{}, fmt.Errorf("query key %q is missing; every exact-FormRef query names its space", QuerySpace)
		}
		return "", FormRef{}, fmt.Errorf("query key %q appears %d times; send it exactly once", QuerySpace, len(vs))
	}
	if err := ValidateSpaceID(vs[0]); err != nil {
		return "", FormRef{}, err
	}
	return vs[0], ref, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
