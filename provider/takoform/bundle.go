package takoform

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

// Planning local bundle files (docs/provider-design.md#bundles): read each file's size
// and digest, build the manifest of the kind's manifest kind, plan its digest.

// localEntry is one configured module or file.
type localEntry struct {
	key, mediaType, file string
	size                 int64
	digest               string
}

// manifestOf is the manifest the entries describe: the kind's entry member only
// (per-kind exclusivity), in configured order when the order is meaning, else sorted
// by name, so reordering an inventory in the configuration is not a new bundle.
func (a *authoring) manifestOf(main string, entries []localEntry) map[string]any {
	sorted := append([]localEntry(nil), entries...)
	if !a.manifest.Ordered {
		sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].key < sorted[j].key })
	}
	list := make([]any, len(sorted))
	for i, e := range sorted {
		list[i] = map[string]any{a.key: e.key, "mediaType": e.mediaType, "size": e.size, "digest": e.digest}
	}
	doc := map[string]any{"apiVersion": wire.ArtifactAPIVersion, "kind": a.manifest.Kind, a.list: list}
	if a.main {
		doc["mainModule"] = main
	}
	return doc
}

func hashFile(p string) (int64, string, []byte, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, "", nil, err
	}
	s := sha256.Sum256(b)
	return int64(len(b)), "sha256:" + hex.EncodeToString(s[:]), b, nil
}

// entryObjectType is the object type of one element of the kind's entries list.
func entryObjectType(kt *kindType) types.ObjectType {
	return kt.objectType.AttrTypes[kt.model.bundle.list].(types.ListType).ElemType.(types.ObjectType)
}

// readEntries reads the configured entries; ok=false while any is unknown.
func (a *authoring) readEntries(v attr.Value) (entries []localEntry, ok bool) {
	l, isList := v.(types.List)
	if !isList || l.IsUnknown() {
		return nil, false
	}
	for _, e := range l.Elements() {
		o, isObj := e.(types.Object)
		if !isObj || o.IsUnknown() {
			return nil, false
		}
		at := o.Attributes()
		var le localEntry
		for key, dst := range map[string]*string{a.key: &le.key, "content_type": &le.mediaType, "content_file": &le.file} {
			s, isStr := at[key].(types.String)
			if !isStr || s.IsUnknown() {
				return nil, false
			}
			*dst = s.ValueString()
		}
		entries = append(entries, le)
	}
	return entries, true
}

// planBundle plans manifest_digest and the entry sizes and digests from local files.
func (r *Resource) planBundle(plan, config values, form *model.Form, d *diag.Diagnostics) {
	m := r.kind.model
	a := m.bundle
	if a == nil || !artifactAddressed(form) {
		return
	}
	digestAttr := form.Fields[0].Attr
	name := plan.str(aName)
	repair := fmt.Sprintf("Set %s to a committed manifest, or %s to local files (or both, agreeing).", digestAttr, a.localAttrs())
	conflictTo := func(p path.Path, summary, what, repair string) {
		(&report{summary: summary, typeName: m.typeName, name: name, ref: &form.Ref, attr: &p, code: codeBundleConflict,
			pointer: "/spec/" + form.Fields[0].Wire, what: what, repair: repair}).add(d)
	}
	conflict := func(p path.Path, summary, what string) { conflictTo(p, summary, what, repair) }
	either := "Set " + digestAttr + ", or " + a.localAttrs()
	hasMain, hasList := a.main && !isNullVal(config, aMainModule), !isNullVal(config, a.list)
	hasDigest := !isNullVal(config, digestAttr)
	if !hasMain && !hasList {
		if !hasDigest {
			conflict(path.Root(digestAttr), either, "The bundle names neither a committed manifest nor local "+a.what()+" files.")
		}
		return
	}
	if a.main && hasMain != hasList {
		conflict(path.Root(aMainModule), either, "Local authoring needs both main_module and modules.")
		return
	}
	entries, ok := a.readEntries(config[a.list])
	if !ok || (a.main && !config.known(aMainModule)) {
		if !hasDigest {
			plan[digestAttr] = types.StringUnknown()
		}
		return
	}
	main := config.str(aMainModule)
	elems, ok := r.hashEntries(entries, d)
	if !ok {
		return
	}
	if a.main {
		if summary, what, fix := a.mainProblem(main, entries); summary != "" {
			conflictTo(path.Root(aMainModule), summary, what, fix)
			return
		}
	}
	plan[a.list] = types.ListValueMust(entryObjectType(r.kind), elems)
	digest, err := wire.DigestValue(a.manifestOf(main, entries))
	if err != nil {
		d.AddError("Could not compute the manifest digest", err.Error())
		return
	}
	if hasDigest && config.known(digestAttr) && config.str(digestAttr) != digest {
		conflict(path.Root(digestAttr), "Bundle files do not match "+digestAttr,
			fmt.Sprintf("The local files describe manifest %s, but %s is %s.", digest, digestAttr, config.str(digestAttr)))
		return
	}
	plan[digestAttr] = types.StringValue(digest)
}

// hashEntries checks every entry against the manifest kind's policy (media type,
// unique names, size), reads its file, fills in size and digest, and returns the
// planned list elements. Each problem names the entry's attribute path.
func (r *Resource) hashEntries(entries []localEntry, d *diag.Diagnostics) ([]attr.Value, bool) {
	a := r.kind.model.bundle
	ot := entryObjectType(r.kind)
	elems := make([]attr.Value, len(entries))
	seen := map[string]int{}
	for i := range entries {
		e := &entries[i]
		at := path.Root(a.list).AtListIndex(i)
		if !a.manifest.Admits(e.mediaType) {
			attrErr(d, at.AtName("content_type"), "Media type not admitted by a "+a.manifest.Kind+" manifest",
				fmt.Sprintf("%q is not %s. The host would refuse the manifest (artifact_invalid); nothing was uploaded.", e.mediaType, a.admitted()))
			return nil, false
		}
		if j, dup := seen[e.key]; dup {
			attrErr(d, at.AtName(a.key), "Duplicate "+a.what()+" "+a.key,
				fmt.Sprintf("%s[%d] and %s[%d] both name %q; every %s of a manifest has its own %s.", a.list, j, a.list, i, e.key, a.what(), a.key))
			return nil, false
		}
		seen[e.key] = i
		size, digest, _, err := hashFile(e.file)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path is named once, below
			}
			attrErr(d, at.AtName("content_file"), upperFirst(a.what())+" file cannot be read",
				fmt.Sprintf("%s cannot be read (%v), so nothing was planned. Relative paths resolve against OpenTofu's working directory; write \"${path.module}/…\".", e.file, err))
			return nil, false
		}
		if size > maxEntryBytes {
			attrErr(d, at.AtName("content_file"), upperFirst(a.what())+" file too large",
				fmt.Sprintf("%s has %d bytes; a %s has at most %d.", e.file, size, a.what(), maxEntryBytes))
			return nil, false
		}
		e.size, e.digest = size, digest
		elems[i] = types.ObjectValueMust(ot.AttrTypes, map[string]attr.Value{a.key: s2(e.key),
			"content_type": s2(e.mediaType), "content_file": s2(e.file),
			"size": types.Int64Value(size), "digest": s2(digest)})
	}
	return elems, true
}

// mainProblem says what is wrong with main_module, as a diagnostic's summary, detail
// and repair: it names no module, or a module the host cannot load first. "" when
// it names a loadable module.
func (a *authoring) mainProblem(main string, entries []localEntry) (summary, what, repair string) {
	var names []string
	for _, e := range entries {
		if e.key != main {
			names = append(names, e.key)
			continue
		}
		if a.manifest.IsLoadable(e.mediaType) {
			return "", "", ""
		}
		return "main_module must name a loadable module",
			fmt.Sprintf("Module %q has media type %q, which the host cannot load as the entry module; the loadable types are %s.", main, e.mediaType, quoteList(a.manifest.Loadable)),
			fmt.Sprintf("Set main_module to a module of a loadable type, or give %q one of those types.", main)
	}
	return "main_module names no module",
		fmt.Sprintf("%q is the name of no module; the modules are named %s.", main, quoteList(names)),
		fmt.Sprintf("Set main_module to one of those names, or add a module named %q.", main)
}

// admitted says which media types the manifest kind admits, for messages.
func (a *authoring) admitted() string {
	if len(a.manifest.MediaTypes) == 0 {
		return "a lowercase type/subtype without parameters (at most 255 characters)"
	}
	return "one of " + quoteList(a.manifest.MediaTypes)
}

func quoteList(v []string) string {
	out := ""
	for i, s := range quoteAll(v) {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func s2(v string) attr.Value { return types.StringValue(v) }
