package lane

import (
	"cmp"
	"encoding/json"
	"net/http"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// origin is the public origin: scheme and Host of the request.
func (c *call) origin() string {
	scheme := "http"
	if c.r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.r.Host
}

// discovery answers GET /.well-known/takoform/v1alpha3 (host-api.md §2).
func (c *call) discovery() *apiError {
	api := c.origin() + APIRoot
	doc := map[string]any{
		"api_versions": []string{"forms.takoform.com/v1alpha3"},
		"features": map[string]bool{"service_forms": true, "exact_form_ref": true, "optimistic_concurrency": true,
			"idempotent_lifecycle": true, "operations": true, "artifact_upload": true, "support_profiles": true,
			"resource_form_transition": true},
		"endpoints": map[string]string{"api": api, "artifacts": api + "/artifacts", "operations": api + "/operations",
			"support": api + "/support"},
	}
	if f := c.armed("discovery.omit-feature", "", ""); f != nil {
		c.fired(f)
		delete(doc["features"].(map[string]bool), cmp.Or(f.Spec.Value, "exact_form_ref"))
	}
	c.send(http.StatusOK, marshal(doc), "")
	return nil
}

// exactForm reads the exact query of forms and form-definition.
func (c *call) exactForm() (*formAndRef, *apiError) {
	_, ref, err := c.exactQuery()
	if err != nil {
		return nil, err
	}
	f, err := c.installed(ref)
	if err != nil {
		return nil, err
	}
	if n := c.newestOf(f); n != f && c.faultOn("formref.collapse") {
		f, ref = n, n.Ref
	}
	return &formAndRef{ref: ref, pkg: f.PackageDigest, f: f}, nil
}

// forms answers GET {api}/forms: the availability of one exact FormRef.
func (c *call) forms() *apiError {
	fr, err := c.exactForm()
	if err != nil {
		return err
	}
	avail := map[string]any{"identity": identity(fr.ref, fr.pkg), "definitionKnown": true, "installed": true,
		"executable": true, "activated": !c.faultOn("forms.unavailable"), "availableToPrincipal": true,
		"operations": c.s.Host.Operations(fr.f)}
	c.send(http.StatusOK, marshal(map[string]any{"forms": []any{avail}}), "")
	return nil
}

// formDefinition answers GET {api}/form-definitions/{group}/{version}/{kind}.
func (c *call) formDefinition() *apiError {
	fr, err := c.exactForm()
	if err != nil {
		return err
	}
	group := c.params["group"] + "/" + c.params["version"]
	if group != fr.ref.APIVersion || c.params["kind"] != fr.ref.Kind {
		return invalid("the path names %s %s but the query names %s %s; they must agree", group, c.params["kind"], fr.ref.APIVersion, fr.ref.Kind)
	}
	schema := json.RawMessage(fr.f.DesiredJSON)
	if c.faultOn("definition.drift") {
		schema = drifted(schema)
	}
	doc := map[string]any{"identity": identity(fr.ref, fr.pkg), "desiredSchema": schema}
	if fr.f.Title != "" {
		doc["displayName"] = fr.f.Title
	}
	if fr.f.Description != "" {
		doc["description"] = fr.f.Description
	}
	c.send(http.StatusOK, marshal(doc), "")
	return nil
}

func identity(ref wire.FormRef, pkg string) map[string]any {
	id := map[string]any{"formRef": ref}
	if pkg != "" {
		id["packageDigest"] = pkg
	}
	return id
}

// supportGate applies the profile's support mode (hostsim.md §5).
func (c *call) supportGate() *apiError {
	m := c.s.Host.P.SupportMode()
	switch m.Mode {
	case "unavailable":
		return fail(wire.CodeBackendUnavailable, "support profiles are unavailable on this host (profile %q); retry later", c.s.Host.P.Name)
	case "slow":
		select {
		case <-time.After(m.Delay):
		case <-c.ctx.Done():
		}
	}
	return nil
}
