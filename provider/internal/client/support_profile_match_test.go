package client

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// TestSupportProfileMustBeTheOneAskedFor: a plan-time decision is made on the profile
// of exactly the Form, Interface or Binding it asked for (docs/provider-design.md#plan-time-support).
// A host in front of hostsim bends each support answer in one way: another kind of
// profile, a second ref beside the right one, another version or group, or a Form
// profile without operations. Each is refused with its own reason, never read as the
// answer.
func TestSupportProfileMustBeTheOneAskedFor(t *testing.T) {
	t.Parallel()
	queue := cacheForm(t, "AtLeastOnceQueue")
	set := func(key string, v any) func(doc map[string]any) { return func(doc map[string]any) { doc[key] = v } }
	member := func(ref, key string, v any) func(doc map[string]any) {
		return func(doc map[string]any) { doc[ref].(map[string]any)[key] = v }
	}
	digest := "sha256:" + strings.Repeat("0", 64)
	iface := map[string]any{"apiVersion": "interfaces.takoform.com/v1alpha1", "name": "edge.kv", "version": "1.0.0", "schemaDigest": digest}
	binding := map[string]any{"apiVersion": "bindings.takoform.com/v1alpha1", "name": "module-worker.edge-kv", "version": "1.0.0", "schemaDigest": digest}
	ask := map[string]func(c *Client) error{
		"form": func(c *Client) error { _, err := c.FormSupport(context.Background(), queue); return err },
		"interface": func(c *Client) error {
			_, err := c.InterfaceSupport(context.Background(), "edge.kv", "1.0.0")
			return err
		},
		"binding": func(c *Client) error {
			_, err := c.BindingSupport(context.Background(), "module-worker.edge-kv", "1.0.0")
			return err
		},
	}
	for _, c := range []struct {
		name, asks string
		bend       func(doc map[string]any)
		says       string
	}{
		{"a Form's answered as an Interface's", "form", set("kind", "InterfaceSupport"), "a FormSupport profile with a formRef was expected"},
		{"a Form's with an interfaceRef too", "form", set("interfaceRef", iface), "a FormSupport profile with a formRef was expected"},
		{"a Form's with a bindingRef too", "form", set("bindingRef", binding), "a FormSupport profile with a formRef was expected"},
		{"a Form's of another group", "form", member("formRef", "apiVersion", "other.forms.takokit.dev/v1beta1"), "not the requested Form"},
		{"a Form's of another kind", "form", member("formRef", "kind", "QueueConsumer"), "not the requested Form"},
		{"a Form's of another version", "form", member("formRef", "definitionVersion", "9.9.9"), "not the requested Form"},
		{"a Form's without operations", "form", func(doc map[string]any) { delete(doc, "operations") }, "operations is required in a FormSupport profile"},
		{"an Interface's with a formRef too", "interface", set("formRef", map[string]any{"apiVersion": queue.APIVersion, "kind": queue.Kind, "definitionVersion": queue.DefinitionVersion, "schemaDigest": queue.SchemaDigest}), "an InterfaceSupport profile with an interfaceRef was expected"},
		{"an Interface's of another version", "interface", member("interfaceRef", "version", "2.0.0"), "not edge.kv@1.0.0"},
		{"an Interface's of another name", "interface", member("interfaceRef", "name", "edge.sql"), "not edge.kv@1.0.0"},
		{"a Binding's with an interfaceRef too", "binding", set("interfaceRef", iface), "a BindingSupport profile with a bindingRef was expected"},
		{"a Binding's of another version", "binding", member("bindingRef", "version", "2.0.0"), "not module-worker.edge-kv@1.0.0"},
		{"a Binding's of another name", "binding", member("bindingRef", "name", "module-worker.sqlite"), "not module-worker.edge-kv@1.0.0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cl := bentSupport(t, c.bend)
			err := ask[c.asks](cl)
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("%s: %v; want it refused saying %q", c.name, err, c.says)
			}
		})
	}
}

// bentSupport is a client of hostsim through a host in front of it that bends every
// support profile it answers (the listing is left alone).
func bentSupport(t *testing.T, bend func(doc map[string]any)) *Client {
	t.Helper()
	sim := hostsimtest.Start(t, hostsim.Config{})
	front := sim.InFront(t, func(r *http.Request, status int, body []byte) ([]byte, error) {
		at := strings.Index(r.URL.Path, "/support/")
		if status != http.StatusOK || at < 0 || strings.Count(r.URL.Path[at:], "/") <= 2 {
			return body, nil
		}
		var doc map[string]any
		if err := json.Unmarshal(body, &doc); err != nil {
			return nil, err
		}
		bend(doc)
		return json.Marshal(doc)
	})
	c, err := New(Config{Endpoint: front, Token: "sim-primary"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
