package lane

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/request"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// parseQuery decodes a raw query strictly.
func parseQuery(raw string) (url.Values, *wire.Error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, decide.Invalid("the query string is malformed: %v", err)
	}
	return q, nil
}

// findOwn resolves the caller's resource recorded under the exact FormRef.
func (c *call) findOwn(q store.Q, space string, ref wire.FormRef) (*store.Resource, *wire.Error) {
	if err := c.pathAgrees(ref); err != nil {
		return nil, err
	}
	name := c.params["name"]
	cur, err := store.GetResource(q, c.who.Tenant, space, ref.APIVersion, ref.Kind, name)
	if err != nil {
		return nil, decide.Internal(err)
	}
	if cur == nil {
		if c.fs.On(fault.SpaceIgnore) {
			if cur, err = store.GetResourceInAnySpace(q, c.who.Tenant, ref.APIVersion, ref.Kind, name); err != nil {
				return nil, decide.Internal(err)
			}
		}
	}
	var e *wire.Error
	c.fs.Decide(func(a *decide.Acts) { e = decide.CheckRecorded(cur, ref, decide.Describe(ref.Kind, name, space), a) })
	if e != nil {
		return nil, e
	}
	return cur, nil
}

// read answers GET {api}/resources/{group}/{version}/{kind}/{name}.
func read(c *call) *wire.Error {
	space, ref, err := c.exactQuery()
	if err != nil {
		return err
	}
	if _, err := c.s.Engine.Installed(ref, c.fs); err != nil {
		return err
	}
	var a answer
	rerr := c.s.Store.Read(c.ctx, func(q store.Q) error {
		cur, e := c.findOwn(q, space, ref)
		if e != nil {
			return e
		}
		rep, err := c.s.Renderer.Render(q, cur, nil, c.fs)
		if err != nil {
			return err
		}
		a = answer{status: http.StatusOK, body: rep.JSON(), etag: render.ETag(cur, c.fs)}
		return nil
	})
	if rerr != nil {
		return asRefusal(rerr)
	}
	c.reply(a)
	return nil
}

// observe answers POST …/{name}/observe: a fenced re-read that may record a
// host-side status change (the touch-status probe).
func observe(c *call) *wire.Error {
	space, ref, err := c.exactQuery()
	if err != nil {
		return err
	}
	pre, err := request.ParsePreconditions(c.r.Header)
	if err != nil {
		return err
	}
	if err := request.RequireFence(pre, c.rt.name); err != nil {
		return err
	}
	if err := c.requireEmptyBody(); err != nil {
		return err
	}
	f, err := c.s.Engine.Installed(ref, c.fs)
	if err != nil {
		return err
	}
	var a answer
	werr := c.write(func(q store.Q) error {
		if rec, e := c.lookupRecord(q, space); e != nil || rec != nil {
			a = c.replay(rec)
			return errOrNil(e)
		}
		cur, e := c.findOwn(q, space, ref)
		if e != nil {
			return e
		}
		if e := c.s.Engine.Observe(q, f, cur, pre, c.probe == "touch-status", c.fs); e != nil {
			return e
		}
		rep, err := c.s.Renderer.Render(q, cur, nil, c.fs)
		if err != nil {
			return err
		}
		a = answer{status: http.StatusOK, body: marshal(map[string]any{"resource": json.RawMessage(rep.JSON())}), etag: render.ETag(cur, c.fs)}
		return c.record(q, space, a, cur.UID, "")
	})
	if werr != nil {
		e := asRefusal(werr)
		c.refusalWrites(space, ref, e)
		return e
	}
	c.reply(a)
	return nil
}
