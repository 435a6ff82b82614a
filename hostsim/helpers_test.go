package hostsim_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// api is the root of the default lane, which the built-in catalog speaks.
var api = wire.DefaultLane.APIRoot

// discovery is the default lane's discovery path.
var discovery = wire.DefaultLane.DiscoveryPath

// pickForm returns the first Form satisfying ok, or skips.
func pickForm(t testing.TB, cat *catalog.Catalog, what string, ok func(*catalog.Form) bool) *catalog.Form {
	t.Helper()
	for _, f := range cat.Forms() {
		if ok(f) && len(f.Fixtures) > 0 {
			return f
		}
	}
	t.Skipf("the catalog holds no %s", what)
	return nil
}

// updatable: no relations, no outputs, declares update and a mutable integer field.
func updatable(t testing.TB, cat *catalog.Catalog) *catalog.Form {
	return pickForm(t, cat, "updatable Form without relations", func(f *catalog.Form) bool {
		_, ok := intField(f)
		return len(f.Relations) == 0 && !f.HasOutputs() && f.HasCapability("update") && ok
	})
}

// noUpdate: no relations, no outputs, no update, not a revision.
func noUpdate(t testing.TB, cat *catalog.Catalog) *catalog.Form {
	return pickForm(t, cat, "Form without update", func(f *catalog.Form) bool {
		return len(f.Relations) == 0 && !f.HasOutputs() && !f.HasCapability("update") && f.Role != "revision"
	})
}

// withOutputs: declares outputs; its single relation target is creatable.
func withOutputs(t testing.TB, cat *catalog.Catalog) *catalog.Form {
	return pickForm(t, cat, "Form with outputs", func(f *catalog.Form) bool { return f.HasOutputs() })
}

// intField is a mutable top-level integer field with bounds.
func intField(f *catalog.Form) (*catalog.Field, bool) {
	for i := range f.Fields {
		fl := &f.Fields[i]
		if fl.Kind == catalog.FieldInteger && !fl.Immutable && fl.Min != nil && fl.Max != nil && *fl.Max > *fl.Min {
			return fl, true
		}
	}
	return nil, false
}

// fixture returns the Form's first positive desired spec.
func fixture(t testing.TB, f *catalog.Form) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(f.Fixtures[0].Desired, &m); err != nil {
		t.Fatalf("fixture of %s: %v", f.Ref, err)
	}
	return m
}

// changed returns spec with the mutable integer field moved within bounds.
func changed(t testing.TB, f *catalog.Form, spec map[string]any) map[string]any {
	fl, _ := intField(f)
	out := map[string]any{}
	for k, v := range spec {
		out[k] = v
	}
	cur, _ := out[fl.Wire].(float64)
	n := *fl.Min
	if int64(cur) == n {
		n = *fl.Max
	}
	out[fl.Wire] = n
	return out
}

func resPath(f *catalog.Form, name string) string {
	return api + "/resources/" + f.Ref.APIVersion + "/" + f.Ref.Kind + "/" + name
}

func exactQuery(f *catalog.Form, space string) string {
	return "?" + wire.ExactQuery(space, f.Ref).Encode()
}

func body(f *catalog.Form, name, space string, spec map[string]any, extra map[string]any) []byte {
	doc := map[string]any{"apiVersion": f.Ref.APIVersion, "kind": f.Ref.Kind,
		"form": map[string]any{"formRef": f.Ref}, "metadata": map[string]any{"name": name, "space": space}, "spec": spec}
	for k, v := range extra {
		doc[k] = v
	}
	b, _ := json.Marshal(doc)
	return b
}

// prepare returns the prepareDigest for a spec (fence 0 = create).
func (c *client) prepare(f *catalog.Form, name, space string, spec map[string]any, fence int64) string {
	c.t.Helper()
	h := map[string]string{}
	if fence > 0 {
		h["Takoform-Expected-Generation"] = fmt.Sprint(fence)
	}
	r := c.do("POST", api+"/resources/prepare", h, body(f, name, space, spec, nil)).status(200)
	var out struct {
		Review struct{ PrepareDigest, SpecDigest string } `json:"review"`
	}
	_ = json.Unmarshal(r.body, &out)
	return out.Review.PrepareDigest
}

var keySeq int

func newKey() string { keySeq++; return fmt.Sprintf("test-key-%d", keySeq) }

// create prepares and creates; it returns the answer.
func (c *client) create(f *catalog.Form, name, space string, spec map[string]any) *reply {
	c.t.Helper()
	pd := c.prepare(f, name, space, spec, 0)
	return c.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
		body(f, name, space, spec, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
}

// update prepares under fence and applies.
func (c *client) update(f *catalog.Form, name, space string, spec map[string]any, fence int64) *reply {
	c.t.Helper()
	pd := c.prepare(f, name, space, spec, fence)
	return c.do("PUT", resPath(f, name), map[string]string{"Takoform-Expected-Generation": fmt.Sprint(fence), "Idempotency-Key": newKey()},
		body(f, name, space, spec, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
}

func (c *client) read(f *catalog.Form, name, space string) *reply {
	return c.do("GET", resPath(f, name)+exactQuery(f, space), nil, nil)
}

func (c *client) del(f *catalog.Form, name, space string, fence int64) *reply {
	return c.do("DELETE", resPath(f, name)+exactQuery(f, space),
		map[string]string{"Takoform-Expected-Generation": fmt.Sprint(fence), "Idempotency-Key": newKey()}, nil)
}

// meta extracts metadata of a representation.
func meta(t testing.TB, r *reply) (uid, gen, rev string) {
	m := r.json()
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		t.Fatalf("%s: no metadata: %s", r.what, r.body)
	}
	return fmt.Sprint(md["uid"]), fmt.Sprint(md["generation"]), fmt.Sprint(md["revision"])
}

func q(s string) string { return url.QueryEscape(s) }

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }
