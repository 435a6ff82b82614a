package lane

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// The faults that switch off one rule of host-api.md (fault.Table, stage
// "rules"), each so a conformance negative can prove its check fails. Each
// fault is a conditional where its rule is enforced; the helpers below serve
// the ones that need more than a condition.

// faultOn reports (and records the firing of) an armed fault scoped to this
// request's kind and name.
func (c *call) faultOn(name string) bool {
	f := c.armed(name, c.kind, c.name)
	if f == nil {
		return false
	}
	c.fired(f)
	return true
}

// skipRelationCheck: relations.ignore-missing stores references whose target
// does not exist; bindings.unchecked skips the binding checks.
func (c *call) skipRelationCheck(r *rules.Refusal, rf rules.Reference) bool {
	switch {
	case r.Code == wire.CodeResourceNotFound:
		return c.faultOn("relations.ignore-missing")
	case rf.Binding != nil:
		return c.faultOn("bindings.unchecked")
	}
	return false
}

// noDrift: relations.no-drift renders no drift for r.
func (c *call) noDrift(r *store.Resource) bool {
	f := c.armed("relations.no-drift", r.Kind, r.Name)
	if f == nil {
		return false
	}
	c.fired(f)
	return true
}

// frozenRendering: rendering.frozen never re-renders dependents.
func (c *call) frozenRendering(kind, name string) bool {
	f := c.armed("rendering.frozen", kind, name)
	if f == nil {
		return false
	}
	c.fired(f)
	return true
}

// skipFences: name (fence.ignore or ifmatch.ignore) skips a fence comparison;
// at the commit of an accepted mutation commit.skip-fences does too.
func (c *call) skipFences(atCommit bool, name string) bool {
	return c.faultOn(name) || atCommit && c.faultOn("commit.skip-fences")
}

// recordOwner is whom idempotency records are keyed by: the tenant and
// principal, or less under idempotency.tenant-wide and idempotency.host-wide.
func (c *call) recordOwner() (tenant, principal string) {
	switch {
	case c.faultOn("idempotency.host-wide"):
		return "", ""
	case c.faultOn("idempotency.tenant-wide"):
		return c.who.Tenant, ""
	}
	return c.who.Tenant, c.who.Principal
}

// etag is the representation's ETag, weak under etag.weak.
func (c *call) etag(r *store.Resource) string {
	if c.faultOn("etag.weak") {
		return "W/" + etag(r)
	}
	return etag(r)
}

// goneUID remembers the last deleted uid (fault uid.reuse).
type goneUID struct {
	mu  sync.Mutex
	uid string
}

func (g *goneUID) set(uid string) { g.mu.Lock(); g.uid = uid; g.mu.Unlock() }

func (s *Server) lastGone() string {
	s.gone.mu.Lock()
	defer s.gone.mu.Unlock()
	return s.gone.uid
}

// prepareTenant is the tenant a prepareDigest binds: none under prepare.host-wide.
func (c *call) prepareTenant(tenant string) string {
	if c.faultOn("prepare.host-wide") {
		return ""
	}
	return tenant
}

// reencoded renders a terminal Operation afresh (fault operation.unstable):
// the same JSON value, indented, so a later poll does not answer the same bytes.
func reencoded(doc []byte) []byte {
	var out bytes.Buffer
	if json.Indent(&out, doc, "", "  ") != nil {
		return doc
	}
	return out.Bytes()
}

// ungated materializes and canonicalizes spec without validating it (fault
// import.unchecked).
func ungated(f *catalog.Form, spec map[string]any) (*gated, *apiError) {
	m := f.Materialize(spec)
	b, err := wire.CanonicalValue(m)
	if err != nil {
		return nil, invalid("spec cannot be canonicalized: %v", err)
	}
	return &gated{form: f, spec: m, jcs: b, digest: wire.RawDigest(b)}, nil
}

// looseForm resolves an uninstalled FormRef by group and kind alone (fault
// formref.loose): the first installed version of the kind answers.
func (c *call) looseForm(ref wire.FormRef) (*catalog.Form, bool) {
	k, ok := c.s.Host.Cat.Kind(ref.APIVersion, ref.Kind)
	if !ok {
		return nil, false
	}
	for _, v := range k.Versions {
		if f, ok := c.s.Host.Form(v.Ref); ok && c.faultOn("formref.loose") {
			return f, true
		}
	}
	return nil, false
}

// escapedPath is the request path; under path.decode-group an escaped "/"
// (%2F) splits its segment, so a group sent as one segment is accepted.
func (c *call) escapedPath() string {
	p := c.r.URL.EscapedPath()
	if strings.Contains(strings.ToUpper(p), "%2F") && c.faultOn("path.decode-group") {
		return strings.NewReplacer("%2F", "/", "%2f", "/").Replace(p)
	}
	return p
}

// drifted adds an annotation member to a desiredSchema (fault definition.drift).
func drifted(schema json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(schema, &m) != nil {
		return schema
	}
	m["$comment"] = "drifted by the hostsim fault definition.drift"
	return marshal(m)
}

// readyReason is the Ready condition's reason; status.invent-reason replaces
// it with one outside the closed vocabulary.
func (c *call) readyReason(reason string) string {
	if c.faultOn("status.invent-reason") {
		return "InventedByHostsim"
	}
	return reason
}

// newestOf is the last installed version of f's kind (fault formref.collapse).
func (c *call) newestOf(f *catalog.Form) *catalog.Form {
	k, ok := c.s.Host.Cat.Kind(f.Ref.APIVersion, f.Ref.Kind)
	if !ok {
		return f
	}
	newest := f
	for _, v := range k.Versions {
		if g, ok := c.s.Host.Form(v.Ref); ok {
			newest = g
		}
	}
	return newest
}

// echoedSpec is the spec prepare echoes: the materialized spec, or under
// prepare.no-materialize the spec without the members its defaults supply.
func (c *call) echoedSpec(f *catalog.Form, g *gated) json.RawMessage {
	if !c.faultOn("prepare.no-materialize") {
		return g.jcs
	}
	bare := map[string]any{}
	for k, v := range g.spec {
		bare[k] = v
	}
	for k := range g.spec {
		v := bare[k]
		delete(bare, k)
		if b, err := wire.CanonicalValue(f.Materialize(bare)); err != nil || string(b) != string(g.jcs) {
			bare[k] = v // not supplied by a default
		}
	}
	return marshal(bare)
}

// exclusive is the fault mutation.exclusive: while it is armed a mutation holds
// the host for exclusiveHold, and one arriving meanwhile is refused (busy).
func (c *call) exclusive() (release func(), busy bool) {
	if c.armed("mutation.exclusive", c.kind, c.name) == nil {
		return func() {}, false
	}
	release = func() { c.s.inflight.Add(-1) }
	if c.s.inflight.Add(1) > 1 {
		release()
		if c.faultOn("mutation.exclusive") {
			return nil, true
		}
		return func() {}, false
	}
	time.Sleep(exclusiveHold)
	return release, false
}

const exclusiveHold = 500 * time.Millisecond
