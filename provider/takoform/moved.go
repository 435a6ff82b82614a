package takoform

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/provider/internal/client"
)

// movedTo looks for a resource the host no longer answers under its recorded ref under the
// kind's other carried refs, newest first, as an import probes (findByName;
// docs/provider-design.md#moved-outside-this-configuration):
// another client may have moved it to another definition version, and the host answers a
// resource only under the ref it records. It returns the resource and its Form when the uid
// the state records answers under another ref. It returns nil when no other ref holds the name,
// or when the state records no uid (an import naming an exact ref asks for that ref only).
// stop is true when it reported an error and the state must be kept: the probe could not read
// the host, or another incarnation holds the name under another ref.
func (r *Resource) movedTo(ctx context.Context, prior values, from *model.Form, d *diag.Diagnostics) (res *client.Resource, to *model.Form, stop bool) {
	m := r.kind.model
	uid := prior.str(aUID)
	if uid == "" {
		return nil, nil, false
	}
	name, space := prior.str(aName), prior.str(aSpace)
	got, f, err := r.findByName(ctx, space, name, from.Ref)
	switch {
	case err != nil:
		rep := &report{summary: fmt.Sprintf("Failed to read %s %s", m.kind.Kind, name), typeName: m.typeName,
			space: space, name: name, ref: &f.Ref, pointer: "/metadata",
			what: "The host no longer answers this resource under its recorded definition version " + from.Ref.DefinitionVersion +
				", and it could not be read under " + f.Ref.DefinitionVersion + " to learn whether it was moved there; the state was left unchanged."}
		rep.fence("Expected UID", uid).withErr(err).add(d)
		return nil, nil, true
	case got == nil:
		return nil, nil, false
	case got.Metadata.UID != uid:
		rep := r.uidReport(prior, f, uid, got.Metadata.UID, got.Metadata.Generation, got.Metadata.Revision)
		rep.what = "The host no longer answers this name under its recorded definition version " + from.Ref.DefinitionVersion +
			"; under " + f.Ref.DefinitionVersion + " it serves another incarnation (deleted and re-created outside this configuration). " +
			"The state was kept exactly as it was: it is neither re-bound to the new object nor removed."
		rep.add(d)
		return nil, nil, true
	}
	return got, f, false
}

// movedWarning says that a refresh found the resource under another definition version and the
// state now records that version.
func (r *Resource) movedWarning(prior values, from, to *model.Form, res *client.Resource, d *diag.Diagnostics) {
	rep := r.movedReport(prior, from, to, res)
	rep.warning = true
	rep.what += " The state now records " + to.Ref.DefinitionVersion + " and the spec the host serves there."
	rep.repair = "If this configuration asks for " + to.Ref.DefinitionVersion + " (by form_definition_version, by the transition marker that leads there, " +
		"or by leaving the version unset when it is the newest), the next apply converges without a request. If it still asks for " +
		from.Ref.DefinitionVersion + ", set form_definition_version to " + to.Ref.DefinitionVersion + ": plan refuses a move back that no transition declares."
	rep.add(d)
}

// deleteNotFound finishes a delete the host answered resource_not_found under the recorded ref.
// The resource is gone, and the state goes with it, unless it was moved to another definition
// version: the delete, sent under the recorded one, removed nothing, so an error keeps the state.
func (r *Resource) deleteNotFound(ctx context.Context, prior values, from *model.Form, d *diag.Diagnostics) {
	res, to, _ := r.movedTo(ctx, prior, from, d)
	if res == nil {
		return // gone, or movedTo reported the error that keeps the state
	}
	rep := r.movedReport(prior, from, to, res)
	rep.what += " The delete was sent under " + from.Ref.DefinitionVersion + ", so it removed nothing, and the state was kept."
	rep.repair = "Refresh first (tofu apply -refresh-only, or a destroy without -refresh=false) so the state records " +
		to.Ref.DefinitionVersion + ", then destroy again."
	rep.add(d)
}

func (r *Resource) movedReport(prior values, from, to *model.Form, res *client.Resource) *report {
	m := r.kind.model
	name, space := prior.str(aName), prior.str(aSpace)
	rep := &report{typeName: m.typeName, space: space, name: name, ref: &to.Ref, pointer: "/metadata", code: codeFormMovedOutside,
		summary: fmt.Sprintf("%s %s/%s was moved to definition version %s outside this configuration", m.kind.Kind, space, name, to.Ref.DefinitionVersion),
		what: "The host no longer answers this resource under its recorded definition version " + from.Ref.DefinitionVersion +
			"; it answers the same object (the uid the state records) under " + to.Ref.DefinitionVersion + "."}
	rep.fence("Expected UID", res.Metadata.UID).fence("Current generation", res.Metadata.Generation)
	return rep
}
