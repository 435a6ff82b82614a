package lane

import (
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/request"
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
		return "", wire.FormRef{}, decide.Invalid("the exact-FormRef query is malformed: %v", perr)
	}
	return space, ref, nil
}

// pathAgrees checks {group}/{version}/{kind} of the path against the FormRef.
func (c *call) pathAgrees(ref wire.FormRef) *wire.Error {
	if c.group() != ref.APIVersion || c.params["kind"] != ref.Kind {
		return decide.Invalid("the path names %s %s but the query names %s %s; they must agree", c.group(), c.params["kind"], ref.APIVersion, ref.Kind)
	}
	return nil
}

// del answers DELETE {api}/resources/{group}/{version}/{kind}/{name}.
func del(c *call) *wire.Error {
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
	if _, err := c.s.Engine.Installed(ref, c.fs); err != nil {
		return err
	}
	if err := c.pathAgrees(ref); err != nil {
		return err
	}
	d := &decide.Deletion{Tenant: c.who.Tenant, Space: space, Ref: ref, Name: c.params["name"], Fence: pre.Fence,
		IfMatch: pre.IfMatch, External: c.probe == "external-change"}
	var a answer
	werr := c.write(func(q store.Q) error {
		if rec, e := c.lookupRecord(q, space); e != nil || rec != nil {
			a = c.replay(rec)
			return errOrNil(e)
		}
		cur, e := c.s.Engine.DecideDelete(q, d, false, c.rt.name, c.fs)
		if e != nil {
			return e
		}
		if async, complete := c.async(ref); async {
			d.TargetUID = cur.UID
			body, id, err := c.s.Engine.Accept(q, lifecycle.Accepted{Tenant: c.who.Tenant, Principal: c.who.Principal,
				Action: "delete", Kind: ref.Kind, Name: d.Name, Request: d, TargetUID: cur.UID, CompleteAfter: complete})
			if err != nil {
				return err
			}
			a = answer{status: http.StatusAccepted, body: body}
			return c.record(q, space, a, "", id)
		}
		if err := c.s.Engine.CommitDelete(q, cur, c.fs); err != nil {
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
