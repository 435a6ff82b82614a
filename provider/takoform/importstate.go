package takoform

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

type importID struct {
	Space             *string `json:"space"`
	Name              string  `json:"name,required"`
	APIVersion        *string `json:"apiVersion"`
	Kind              *string `json:"kind"`
	DefinitionVersion *string `json:"definitionVersion"`
	SchemaDigest      *string `json:"schemaDigest"`
}

const importForms = "Accepted import IDs: NAME (the provider's default space), SPACE/NAME, or a JSON object " +
	`{"space":…,"name":…,"apiVersion":…,"kind":…,"definitionVersion":…,"schemaDigest":…} with name required, space optional, and the four Form members all or none.`

// parseImportID returns space ("" = provider default), name and an optional exact ref.
func parseImportID(raw string) (space, name string, ref *wire.FormRef, err error) {
	id := strings.TrimSpace(raw)
	switch {
	case strings.HasPrefix(id, "{"):
		var doc importID
		if err := wire.DecodeStrict([]byte(id), &doc); err != nil {
			return "", "", nil, fmt.Errorf("the JSON import ID is not valid: %v", err)
		}
		if doc.Space != nil {
			space = *doc.Space
			if space == "" {
				return "", "", nil, fmt.Errorf("space is empty")
			}
		}
		four := []*string{doc.APIVersion, doc.Kind, doc.DefinitionVersion, doc.SchemaDigest}
		n := 0
		for _, p := range four {
			if p != nil {
				n++
			}
		}
		if n != 0 && n != 4 {
			return "", "", nil, fmt.Errorf("give all four of apiVersion, kind, definitionVersion and schemaDigest, or none")
		}
		if n == 4 {
			ref = &wire.FormRef{APIVersion: *doc.APIVersion, Kind: *doc.Kind, DefinitionVersion: *doc.DefinitionVersion, SchemaDigest: *doc.SchemaDigest}
		}
		name = doc.Name
	case strings.Count(id, "/") == 1:
		space, name, _ = strings.Cut(id, "/")
		if space == "" {
			return "", "", nil, fmt.Errorf("the space before \"/\" is empty")
		}
		if name == "" {
			return "", "", nil, fmt.Errorf("the name after \"/\" is empty")
		}
	case strings.Contains(id, "/"):
		return "", "", nil, fmt.Errorf("the ID holds more than one \"/\"")
	default:
		name = id
	}
	if !wire.ValidResourceName(name) {
		return "", "", nil, fmt.Errorf("name %q does not match %s. %s", name, namePattern, strings.TrimSuffix(nameRule, "."))
	}
	if space != "" {
		if err := wire.ValidateSpaceID(space); err != nil {
			return "", "", nil, err
		}
	}
	return space, name, ref, nil
}

func (r *Resource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	m := r.kind.model
	d := &resp.Diagnostics
	space, name, ref, err := parseImportID(req.ID)
	if err != nil {
		(&report{summary: "Invalid import ID", typeName: m.typeName, what: err.Error() + ".", pointer: "/metadata/name",
			code: codeImportIDInvalid, repair: importForms}).add(d)
		return
	}
	if space == "" && r.configured != nil {
		space = r.configured.space
	}
	if space == "" {
		(&report{summary: "No space for the import of " + m.kind.Kind + " " + name, typeName: m.typeName, name: name,
			code: codeSpaceMissing, what: "The import ID names no space and the provider has no default space.",
			repair: "Import with SPACE/NAME, or set space in the provider block or TAKOFORM_SPACE."}).add(d)
		return
	}
	var form *model.Form
	if ref != nil {
		f, ok := m.cat.Form(*ref)
		if !ok || ref.Kind != m.kind.Kind || ref.APIVersion != m.kind.APIVersion {
			(&report{summary: "Import names a Form identity that " + m.typeName + " does not carry", typeName: m.typeName,
				space: space, name: name, ref: ref, code: codeImportIDInvalid, pointer: "/metadata/name",
				what:   "No request was sent. This type carries: " + strings.Join(m.refTexts(), "; ") + ".",
				repair: "Name one of the carried refs, or leave the Form members out so the provider probes them."}).add(d)
			return
		}
		form = f
	} else {
		if !r.ready(d, name) {
			return
		}
		res, f, err := r.findByName(ctx, space, name, wire.FormRef{})
		if err != nil {
			(&report{summary: fmt.Sprintf("Failed to import %s %s", m.kind.Kind, name), typeName: m.typeName,
				space: space, name: name, pointer: "/metadata", what: "The import probe could not read the host; nothing was imported."}).withErr(err).add(d)
			return
		}
		if res == nil {
			(&report{summary: fmt.Sprintf("%s %s/%s was not found under any definition version this provider carries", m.kind.Kind, space, name),
				typeName: m.typeName, space: space, name: name, pointer: "/metadata",
				what:   "The host has no resource of that name under any of those versions, so nothing was imported. Probed: " + strings.Join(m.refTexts(), "; ") + ".",
				repair: "Check the name and space, or create the resource instead of importing it."}).add(d)
			return
		}
		form = f
	}
	v := values{aName: types.StringValue(name), aSpace: types.StringValue(space)}
	m.setRef(v, form.Ref)
	r.setState(ctx, &resp.State.Raw, v, d)
}

func (m *kindModel) refTexts() []string {
	var out []string
	for i := len(m.kind.Versions) - 1; i >= 0; i-- {
		f := m.kind.Versions[i]
		out = append(out, fmt.Sprintf("%s@%s schema=%s", f.Ref.Kind, f.Ref.DefinitionVersion, f.Ref.SchemaDigest))
	}
	return out
}

// findByName reads name under the kind's refs newest first (docs/provider-design.md#import),
// skipping the ref except (the zero ref skips none). resource_not_found and form_unknown move on;
// any other error stops, and the Form returned with it is the one whose read failed.
func (r *Resource) findByName(ctx context.Context, space, name string, except wire.FormRef) (*client.Resource, *model.Form, error) {
	vs := r.kind.model.kind.Versions
	for i := len(vs) - 1; i >= 0; i-- {
		f := vs[i]
		if f.Ref == except {
			continue
		}
		res, err := r.configured.client.Get(ctx, client.Expect{Ref: f.Ref, Name: name, Space: space})
		if client.IsNotFound(err) || client.IsCode(err, wire.CodeFormUnknown) {
			continue
		}
		if err != nil {
			return nil, f, err
		}
		return res, f, nil
	}
	return nil, nil, nil
}
