package lane

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// parseQuery decodes a raw query strictly.
func parseQuery(raw string) (url.Values, *apiError) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, invalid("the query string is malformed: %v", err)
	}
	return q, nil
}

// findOwn resolves the caller's resource under the exact FormRef.
func (c *call) findOwn(q store.Q, space string, ref wire.FormRef) (*store.Resource, *apiError) {
	if _, err := c.installed(ref); err != nil {
		return nil, err
	}
	if err := c.pathAgrees(ref); err != nil {
		return nil, err
	}
	cur, err := store.GetResource(q, c.who.Tenant, space, ref.APIVersion, ref.Kind, c.params["name"])
	if cur == nil && err == nil && c.faultOn("space.ignore") {
		cur, err = store.GetResourceInAnySpace(q, c.who.Tenant, ref.APIVersion, ref.Kind, c.params["name"])
	}
	if err != nil {
		return nil, internal(err)
	}
	if cur == nil || wireRef(cur) != ref && !c.faultOn("formref.any-version") {
		return nil, notFound("%s %q does not exist in space %q under %s", ref.Kind, c.params["name"], space, ref)
	}
	return cur, nil
}

func wireRef(r *store.Resource) wire.FormRef { return ref(r) }

// read answers GET {api}/resources/{group}/{version}/{kind}/{name}.
func (c *call) read() *apiError {
	space, ref, err := c.exactQuery()
	if err != nil {
		return err
	}
	var rep *representation
	var tag string
	rerr := c.s.Store.Read(c.ctx, func(tx store.Q) error {
		cur, e := c.findOwn(tx, space, ref)
		if e != nil {
			return e
		}
		rep, e = c.render(tx, cur)
		if e != nil {
			return e
		}
		tag = c.etag(cur)
		return nil
	})
	if rerr != nil {
		return asAPI(rerr)
	}
	c.send(http.StatusOK, marshal(rep), tag)
	return nil
}

// observe answers POST …/{name}/observe: a fenced re-read that may record a
// host-side status change (touch-status probe).
func (c *call) observe() *apiError {
	space, ref, err := c.exactQuery()
	if err != nil {
		return err
	}
	pre, err := c.readPreconditions()
	if err != nil {
		return err
	}
	if err := c.requireFence(pre); err != nil {
		return err
	}
	if err := c.requireEmptyBody(); err != nil {
		return err
	}
	var rec *store.Record
	var body []byte
	var tag string
	werr := c.s.Store.Write(c.ctx, func(tx store.Q) error {
		r, e := c.lookupRecord(tx, space)
		if e != nil {
			return e
		}
		if r != nil {
			rec = r
			return nil
		}
		cur, e := c.findOwn(tx, space, ref)
		if e != nil {
			return e
		}
		if e := c.claimRefusal(tx, cur); e != nil { // Form transition claim (transitions.md §5)
			return e
		}
		what := describe(cur)
		if pre.fence != cur.Generation && !c.faultOn("fence.ignore") {
			return fail(wire.CodeGenerationConflict, "fence %d is stale: %s is at generation %d; read it again", pre.fence, what, cur.Generation)
		}
		if pre.ifMatch != 0 && pre.ifMatch != cur.Revision && !c.faultOn("ifmatch.ignore") {
			return fail(wire.CodeRevisionConflict, "If-Match \"%d\" is stale: %s is at revision %d; read it again", pre.ifMatch, what, cur.Revision)
		}
		f, _ := c.installed(ref)
		if v := c.s.Host.CheckOperation(f, "observe"); v != nil {
			return fail(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message)
		}
		if c.probe == "touch-status" {
			cur.Touches++
			cur.Revision++
			if c.faultOn("generation.on-status") {
				cur.Generation++
			}
			cur.ReadyMessage = fmt.Sprintf("host-side status change %d", cur.Touches)
			if err := store.UpdateResource(tx, cur); err != nil {
				return err
			}
			if err := store.AddCounter(tx, "mutations", 1); err != nil {
				return err
			}
		}
		rep, e := c.render(tx, cur)
		if e != nil {
			return e
		}
		body, tag = marshal(map[string]any{"resource": rep}), c.etag(cur)
		return c.record(tx, space, http.StatusOK, body, tag, cur.UID, "")
	})
	if werr != nil {
		return asAPI(werr)
	}
	if rec != nil {
		c.replay(rec)
		return nil
	}
	c.send(http.StatusOK, body, tag)
	return nil
}
