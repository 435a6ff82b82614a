package surface

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// routeCall is a Call over fixed path parameters and an exact-FormRef answer.
type routeCall struct {
	params map[string]string
	ref    wire.FormRef
	form   *catalog.Form
	refuse *wire.Error
	status int
	body   []byte
}

func (c *routeCall) Context() context.Context { return context.Background() }
func (c *routeCall) Faults() *fault.Set       { return nil }
func (c *routeCall) Param(name string) string { return c.params[name] }
func (c *routeCall) Origin() string           { return "https://host.example.test" }

func (c *routeCall) ExactForm() (wire.FormRef, *catalog.Form, *wire.Error) {
	return c.ref, c.form, c.refuse
}

func (c *routeCall) Send(status int, body []byte, etag string) {
	if c.status != 0 || etag != "" {
		panic("a surface route answers once, without an ETag")
	}
	c.status, c.body = status, body
}

// Each route sends what its answer function builds from the path, as a 200,
// and sends nothing when it refuses.
func TestServeRoutes(t *testing.T) {
	s := surfaceOf(t, "full")
	f := s.Host.Forms()[0]
	group, version, _ := strings.Cut(f.Ref.APIVersion, "/")
	path := map[string]string{"group": group, "version": version, "kind": f.Ref.Kind,
		"definitionVersion": f.Ref.DefinitionVersion}
	form, _ := s.FormDefinition(f.Ref, f, f.Ref.APIVersion, f.Ref.Kind, nil)
	support, _ := s.SupportForm(context.Background(), f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion, nil)
	for name, c := range map[string]struct {
		serve func(Call) *wire.Error
		want  []byte
	}{
		"discovery":       {s.ServeDiscovery, s.Discovery("https://host.example.test", nil)},
		"forms":           {s.ServeForms, s.Forms(f.Ref, f, nil)},
		"form-definition": {s.ServeFormDefinition, form},
		"support-form":    {s.ServeSupportForm, support},
	} {
		rc := &routeCall{params: path, ref: f.Ref, form: f}
		if e := c.serve(rc); e != nil || rc.status != http.StatusOK || !bytes.Equal(rc.body, c.want) {
			t.Fatalf("%s: refusal %v, answer %d %s; want 200 %s", name, e, rc.status, rc.body, c.want)
		}
	}
	no := decide.Refuse(wire.CodeFormNotInstalled, "not installed")
	for name, serve := range map[string]func(Call) *wire.Error{"forms": s.ServeForms, "form-definition": s.ServeFormDefinition} {
		rc := &routeCall{params: path, refuse: no}
		if e := serve(rc); e != no || rc.status != 0 {
			t.Fatalf("%s: an unresolved exact FormRef answered %v and sent %d, want its refusal and nothing sent", name, e, rc.status)
		}
	}
	rc := &routeCall{params: map[string]string{"group": "nothing.example.test", "version": "v1", "kind": "Nothing", "definitionVersion": "1.0.0"}}
	if e := s.ServeSupportForm(rc); e == nil || e.Code != wire.CodeFormUnknown || rc.status != 0 {
		t.Fatalf("support-form of an unknown Form: %v, sent %d; want form_unknown and nothing sent", e, rc.status)
	}
}
