package lane

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// deletion is an accepted delete, stored with a 202 and decided again at commit.
type deletion struct {
	Tenant    string       `json:"tenant"`
	Space     string       `json:"space"`
	Ref       wire.FormRef `json:"ref"`
	Name      string       `json:"name"`
	Fence     int64        `json:"fence"`
	IfMatch   int64        `json:"ifMatch"`
	External  bool         `json:"external"`
	TargetUID string       `json:"targetUid"`
}

// exactQuery parses the five-key query and checks path agreement later.
func (c *call) exactQuery() (string, wire.FormRef, *apiError) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return "", wire.FormRef{}, err
	}
	if q.Has("packageDigest") && c.faultOn("formref.package-key") {
		q.Del("packageDigest")
	}
	space, ref, perr := wire.ParseExactQuery(q)
	if perr != nil {
		return "", wire.FormRef{}, invalid("the exact-FormRef query is malformed: %v", perr)
	}
	return space, ref, nil
}

// pathAgrees checks {group}/{version}/{kind} of the path against the FormRef.
func (c *call) pathAgrees(ref wire.FormRef) *apiError {
	group := c.params["group"] + "/" + c.params["version"]
	if group != ref.APIVersion || c.params["kind"] != ref.Kind {
		return invalid("the path names %s %s but the query names %s %s; they must agree", group, c.params["kind"], ref.APIVersion, ref.Kind)
	}
	return nil
}

// delete answers DELETE {api}/resources/{group}/{version}/{kind}/{name}.
func (c *call) delete() *apiError {
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
	d := &deletion{Tenant: c.who.Tenant, Space: space, Ref: ref, Name: c.params["name"], Fence: pre.fence,
		IfMatch: pre.ifMatch, External: c.probe == "external-change"}
	var rec *store.Record
	var status int
	var body []byte
	werr := c.s.Store.Write(c.ctx, func(tx store.Q) error {
		r, e := c.lookupRecord(tx, space)
		if e != nil {
			return e
		}
		if r != nil {
			rec = r
			return nil
		}
		cur, e := c.decideDelete(tx, d, false)
		if e != nil {
			return e
		}
		if c.isAsync(ref) {
			d.TargetUID = cur.UID
			status, body = http.StatusAccepted, c.accept(tx, "delete", ref.Kind, d.Name, d, cur.UID)
			return c.record(tx, space, status, body, "", "", opIDOf(body))
		}
		if err := c.commitDelete(tx, cur); err != nil {
			return err
		}
		status = http.StatusNoContent
		return c.record(tx, space, status, nil, "", "", "")
	})
	if werr != nil {
		return asAPI(werr)
	}
	if rec != nil {
		c.replay(rec)
		return nil
	}
	if status != http.StatusAccepted && c.dropAfterCommit() {
		return nil
	}
	c.send(status, body, "")
	return nil
}

// decideDelete resolves the target, fences and dependency scan.
func (c *call) decideDelete(q store.Q, d *deletion, atCommit bool) (*store.Resource, *apiError) {
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
		return nil, internal(serr)
	}
	what := fmt.Sprintf("%s %q in space %q", d.Ref.Kind, d.Name, d.Space)
	if cur == nil || ref(cur) != d.Ref && !c.faultOn("formref.any-version") {
		return nil, notFound("%s does not exist under %s", what, d.Ref)
	}
	if e := c.claimRefusal(q, cur); e != nil { // Form transition claim (transitions.md §5)
		return nil, e
	}
	if atCommit && d.TargetUID != "" && cur.UID != d.TargetUID && !c.faultOn("commit.skip-identity") {
		return nil, fail(wire.CodeUIDMismatch, "%s is now uid %s; the accepted delete bound uid %s", what, cur.UID, d.TargetUID)
	}
	if d.Fence != cur.Generation && !c.skipFences(atCommit, "fence.ignore") {
		return nil, fail(wire.CodeGenerationConflict, "fence %d is stale: %s is at generation %d; read it again", d.Fence, what, cur.Generation)
	}
	if d.Fence != cur.Revision && c.faultOn("delete.revision-fenced") {
		return nil, fail(wire.CodeGenerationConflict, "fence %d is stale: %s is at revision %d (fault delete.revision-fenced compares the fence with the revision)", d.Fence, what, cur.Revision)
	}
	if d.IfMatch != 0 && d.IfMatch != cur.Revision && !c.skipFences(atCommit, "ifmatch.ignore") {
		return nil, fail(wire.CodeRevisionConflict, "If-Match \"%d\" is stale: %s is at revision %d; read it again", d.IfMatch, what, cur.Revision)
	}
	if v := c.s.Host.CheckOperation(f, "delete"); v != nil {
		return nil, fail(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message)
	}
	if !d.External && !c.faultOn("delete.skip-dependents") {
		if e := c.deploymentDeleteGate(q, cur); e != nil {
			return nil, e
		}
		holders, err := store.PinsTo(q, cur.UID)
		if err != nil {
			return nil, internal(err)
		}
		if len(holders) > 0 {
			var names []string
			for _, p := range holders {
				src, _ := store.GetResourceByUID(q, p.SourceUID)
				if src != nil {
					names = append(names, fmt.Sprintf("%s %q (%s)", src.Kind, src.Name, p.Pointer))
				}
			}
			return nil, fail(wire.CodeDependencyInUse, "%s is still referenced by %s; delete or change those first", what, strings.Join(names, ", "))
		}
	}
	return cur, nil
}

// commitDelete removes the incarnation.
func (c *call) commitDelete(q store.Q, cur *store.Resource) error {
	if err := store.DeleteResource(q, cur.UID); err != nil {
		return err
	}
	c.s.gone.set(cur.UID)
	if err := store.AddCounter(q, "mutations", 1); err != nil {
		return err
	}
	if err := c.recompute(q, cur.Tenant, cur.Space, cur.APIVersion, cur.Kind, cur.Name, cur.UID); err != nil {
		return err
	}
	return Append(q, c.s.Now(), "mutation", map[string]any{"tenant": cur.Tenant, "space": cur.Space, "kind": cur.Kind,
		"name": cur.Name, "uid": cur.UID, "deleted": true})
}
