package lane

import (
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// exactQuery parses the five-key query (docs/protocol.md#routes).
func (c *call) exactQuery() (string, wire.FormRef, *wire.Error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return "", wire.FormRef{}, err
	}
	if q.Has("packageDigest") {
		if c.fs.On(fault.FormRefPackageKey) {
			q.Del("packageDigest")
		}
	}
	space, ref, perr := wire.ParseExactQuery(q)
	if perr != nil {
		return "", wire.FormRef{}, core.Invalid("the exact-FormRef query is malformed: %v", perr)
	}
	return space, ref, nil
}

// pathAgrees checks {group}/{version}/{kind} of the path against the FormRef.
func (c *call) pathAgrees(ref wire.FormRef) *wire.Error {
	if c.group() != ref.APIVersion || c.params["kind"] != ref.Kind {
		return core.Invalid("the path names %s %s but the query names %s %s; they must agree", c.group(), c.params["kind"], ref.APIVersion, ref.Kind)
	}
	return nil
}

// del answers DELETE {api}/resources/{group}/{version}/{kind}/{name}.
func del(c *call) *wire.Error {
	space, ref, err := c.exactQuery()
	if err != nil {
		return err
	}
	pre, err := core.ParsePreconditions(c.r.Header)
	if err != nil {
		return err
	}
	if err := core.RequireFence(pre, c.rt.name); err != nil {
		return err
	}
	if err := c.requireEmptyBody(); err != nil {
		return err
	}
	d := &core.Deletion{Tenant: c.who.Tenant, Space: space, Ref: ref, Name: c.params["name"], Fence: pre.Fence,
		IfMatch: pre.IfMatch, External: c.probe == "external-change"}
	var a answer
	werr := c.write(func(q store.Q) error {
		if rec, e := c.lookupRecord(q, space); e != nil || rec != nil {
			a = replayOf(rec)
			return errOrNil(e)
		}
		cur, e := c.decideDelete(q, d, false)
		if e != nil {
			return e
		}
		if async, complete := c.async(ref); async {
			d.TargetUID = cur.UID
			body, err := c.accept(q, "delete", ref.Kind, d.Name, d, cur.UID, complete)
			if err != nil {
				return err
			}
			a = answer{status: http.StatusAccepted, body: body}
			return c.record(q, space, a, "", opIDOf(body))
		}
		if err := c.commitDelete(q, cur); err != nil {
			return err
		}
		a = answer{status: http.StatusNoContent}
		if err := c.record(q, space, a, "", ""); err != nil {
			return err
		}
		a.drop = c.dropsAfterCommit()
		return nil
	})
	if werr != nil {
		return asRefusal(werr)
	}
	c.reply(a)
	return nil
}

// decideDelete resolves the target, the fences and the dependency scans.
func (c *call) decideDelete(q store.Q, d *core.Deletion, atCommit bool) (*store.Resource, *wire.Error) {
	f, err := c.installed(d.Ref)
	if err != nil {
		return nil, err
	}
	if !atCommit {
		if err := c.pathAgrees(d.Ref); err != nil {
			return nil, err
		}
	}
	cur, serr := store.GetResource(q, d.Tenant, d.Space, d.Ref.APIVersion, d.Ref.Kind, d.Name)
	if serr != nil {
		return nil, core.Internal(serr)
	}
	what := d.What()
	if e := core.CheckRecorded(cur, d.Ref, what, c.fs); e != nil {
		return nil, e
	}
	if e := core.CheckClaim(cur, c.routeName(), c.fs); e != nil {
		return nil, e
	}
	if atCommit {
		if e := core.CheckDeleteIdentity(cur, d.TargetUID, what, c.fs); e != nil {
			return nil, e
		}
	}
	if e := core.CheckDeleteFences(cur, d, atCommit, c.fs); e != nil {
		return nil, e
	}
	if v := c.s.Host.CheckOperation(f, "delete"); v != nil {
		return nil, core.Refuse(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message)
	}
	if e := c.s.Gauntlet.DeleteScans(q, cur, d.External, c.fs); e != nil {
		return nil, e
	}
	return cur, nil
}

// commitDelete removes the incarnation and re-renders what it affects.
func (c *call) commitDelete(q store.Q, cur *store.Resource) error {
	if err := store.DeleteResource(q, cur.UID); err != nil {
		return err
	}
	c.s.gone.set(cur.UID)
	if err := store.AddCounter(q, "mutations", 1); err != nil {
		return err
	}
	if err := c.s.Gauntlet.Recompute(q, cur.Tenant, cur.Space, cur.APIVersion, cur.Kind, cur.Name, cur.UID, render.NowText(c.s.Now()), c.fs); err != nil {
		return err
	}
	return journal.Append(q, c.s.Now(), "mutation", map[string]any{"tenant": cur.Tenant, "space": cur.Space, "kind": cur.Kind,
		"name": cur.Name, "uid": cur.UID, "deleted": true})
}
