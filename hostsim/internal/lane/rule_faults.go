package lane

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// The faults that switch off one rule of host-api.md §14–§17 (fault.Table,
// stage "rules"), each so a conformance negative can prove its check fails.

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
