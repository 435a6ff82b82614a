package takoform

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

// Local bundle authoring of artifact-addressed WorkerBundle Forms (docs/provider-design.md#bundles).

const (
	artifactManifestAPIVersion = "artifacts.takoform.com/v1alpha1"
	maxModuleBytes             = 268435456
	sourceMapType              = "application/source-map+json"
)

type localModule struct {
	name, mediaType, file string
	size                  int64
	digest                string
}

// bundleManifest is the manifest the modules describe.
func bundleManifest(main string, mods []localModule) map[string]any {
	list := make([]any, len(mods))
	for i, m := range mods {
		list[i] = map[string]any{"name": m.name, "mediaType": m.mediaType, "size": m.size, "digest": m.digest}
	}
	return map[string]any{"apiVersion": artifactManifestAPIVersion, "kind": artifactManifestKind, "mainModule": main, "modules": list}
}

func hashFile(p string) (int64, string, []byte, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, "", nil, err
	}
	s := sha256.Sum256(b)
	return int64(len(b)), "sha256:" + hex.EncodeToString(s[:]), b, nil
}

func moduleObjectType(kt *kindType) types.ObjectType {
	return kt.objectType.AttrTypes[aModules].(types.ListType).ElemType.(types.ObjectType)
}

// readModules reads the configured modules; ok=false while any is unknown.
func readModules(v attr.Value) (mods []localModule, ok bool) {
	l, isList := v.(types.List)
	if !isList || l.IsUnknown() {
		return nil, false
	}
	for _, e := range l.Elements() {
		o, isObj := e.(types.Object)
		if !isObj || o.IsUnknown() {
			return nil, false
		}
		a := o.Attributes()
		var m localModule
		for key, dst := range map[string]*string{"name": &m.name, "content_type": &m.mediaType, "content_file": &m.file} {
			s, isStr := a[key].(types.String)
			if !isStr || s.IsUnknown() {
				return nil, false
			}
			*dst = s.ValueString()
		}
		mods = append(mods, m)
	}
	return mods, true
}

// planBundle plans manifest_digest and the module sizes and digests from local files.
func (r *Resource) planBundle(plan, config values, form *model.Form, d *diag.Diagnostics) {
	m := r.kind.model
	if !m.bundle || !artifactAddressed(form) {
		return
	}
	digestAttr := form.Fields[0].Attr
	name := plan.str(aName)
	conflict := func(p path.Path, summary, what string) {
		(&report{summary: summary, typeName: m.typeName, name: name, ref: &form.Ref, attr: &p, code: codeBundleConflict,
			pointer: "/spec/" + form.Fields[0].Wire, what: what,
			repair: "Set manifest_digest to a committed manifest, or main_module and modules to local files (or both, agreeing)."}).add(d)
	}
	hasMain, hasMods := !isNullVal(config, aMainModule), !isNullVal(config, aModules)
	hasDigest := !isNullVal(config, digestAttr)
	if !hasMain && !hasMods {
		if !hasDigest {
			conflict(path.Root(digestAttr), "Set manifest_digest, or main_module and modules", "The bundle names neither a committed manifest nor local module files.")
		}
		return
	}
	if hasMain != hasMods {
		conflict(path.Root(aMainModule), "Set manifest_digest, or main_module and modules", "Local authoring needs both main_module and modules.")
		return
	}
	mods, ok := readModules(config[aModules])
	if !ok || !config.known(aMainModule) {
		if !hasDigest {
			plan[digestAttr] = types.StringUnknown()
		}
		return
	}
	main := config.str(aMainModule)
	mainOK := false
	ot := moduleObjectType(r.kind)
	elems := make([]attr.Value, len(mods))
	for i := range mods {
		p := path.Root(aModules).AtListIndex(i).AtName("content_file")
		size, digest, _, err := hashFile(mods[i].file)
		if err != nil {
			d.AddAttributeError(p, "Module file cannot be read", fmt.Sprintf("%s: %v. Relative paths resolve against OpenTofu's working directory; write \"${path.module}/…\".", mods[i].file, err))
			return
		}
		if size > maxModuleBytes {
			d.AddAttributeError(p, "Module file too large", fmt.Sprintf("%s has %d bytes; a module has at most %d.", mods[i].file, size, maxModuleBytes))
			return
		}
		mods[i].size, mods[i].digest = size, digest
		if mods[i].name == main && mods[i].mediaType != sourceMapType {
			mainOK = true
		}
		elems[i] = types.ObjectValueMust(ot.AttrTypes, map[string]attr.Value{"name": s2(mods[i].name),
			"content_type": s2(mods[i].mediaType), "content_file": s2(mods[i].file),
			"size": types.Int64Value(size), "digest": s2(digest)})
	}
	if !mainOK {
		conflict(path.Root(aMainModule), "main_module must name a loadable module", fmt.Sprintf("%q is not the name of a module with a loadable media type.", main))
		return
	}
	plan[aModules] = types.ListValueMust(ot, elems)
	digest, err := wire.DigestValue(bundleManifest(main, mods))
	if err != nil {
		d.AddError("Could not compute the manifest digest", err.Error())
		return
	}
	if hasDigest && config.known(digestAttr) && config.str(digestAttr) != digest {
		conflict(path.Root(digestAttr), "Bundle files do not match manifest_digest",
			fmt.Sprintf("The local files describe manifest %s, but manifest_digest is %s.", digest, config.str(digestAttr)))
		return
	}
	plan[digestAttr] = types.StringValue(digest)
}

func s2(v string) attr.Value { return types.StringValue(v) }

// uploadBundle uploads and commits the local files before the resource request.
func (r *Resource) uploadBundle(ctx context.Context, plan values, form *model.Form) error {
	mods, ok := readModules(plan[aModules])
	if !ok {
		return fmt.Errorf("the module list is not known at apply")
	}
	main := plan.str(aMainModule)
	for i := range mods {
		size, digest, _, err := hashFile(mods[i].file)
		if err != nil {
			return err
		}
		mods[i].size, mods[i].digest = size, digest
	}
	manifest := bundleManifest(main, mods)
	want, err := wire.DigestValue(manifest)
	if err != nil {
		return err
	}
	if planned := plan.str(form.Fields[0].Attr); planned != want {
		return fmt.Errorf("the module files changed since plan: they now describe %s, the plan has %s; plan again", want, planned)
	}
	c := r.configured.client
	st, err := c.StartUpload(ctx, manifest)
	if err != nil {
		return err
	}
	for _, missing := range st.MissingBlobs {
		var mod *localModule
		for i := range mods {
			if mods[i].digest == missing {
				mod = &mods[i]
			}
		}
		if mod == nil {
			return fmt.Errorf("the host asks for blob %s, which the manifest does not declare", missing)
		}
		_, digest, data, err := hashFile(mod.file)
		if err != nil {
			return err
		}
		if digest != missing {
			return fmt.Errorf("%s changed during the upload", mod.file)
		}
		if err := c.PutBlob(ctx, st.UploadID, missing, data); err != nil {
			return err
		}
	}
	got, err := c.CommitUpload(ctx, st.UploadID, want)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("the host committed manifest %s, not the computed %s", got, want)
	}
	return nil
}
