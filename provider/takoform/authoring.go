package takoform

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/lazyre"
)

// Local authoring of artifact bundles (docs/provider-design.md#bundles): every
// artifact-addressed Form whose kind commits to a manifest kind catalog/wire knows gets
// its entries as a list attribute named after the manifest's entry member — WorkerBundle
// main_module + modules[name, ...], StaticAssetBundle and SQLiteMigrationSet
// files[path, ...]. What differs between them is the wire table's data, never a kind
// name here.

// authoring is the local authoring of one kind: its manifest kind and attribute names.
type authoring struct {
	manifest *wire.ManifestKind
	list     string // the entries attribute, the manifest's entry member: modules or files
	key      string // each entry's name attribute and manifest member: name (modules) or path (files)
	main     bool   // the kind names a main module (its manifest has loadable entries)
}

// maxEntryBytes bounds one entry's size (the manifest schema's per-entry maximum).
const maxEntryBytes = 268435456

// entryPathPattern is the manifest's path grammar for entry names: relative,
// slash-separated, no empty, "." or ".." segment (each segment starts with a letter,
// digit or underscore).
const entryPathPattern = `^[A-Za-z0-9_][A-Za-z0-9._-]*(/[A-Za-z0-9_][A-Za-z0-9._-]*)*$`

// newAuthoring answers the authoring of a kind whose newest definition is
// artifact-addressed and whose manifest kind the wire table knows, else nil.
func newAuthoring(k *model.Kind, newest *model.Form) *authoring {
	mk, ok := wire.ManifestKindOf(k.Kind)
	if !ok || !artifactAddressed(newest) {
		return nil
	}
	a := &authoring{manifest: mk, list: mk.Member, key: "path", main: len(mk.Loadable) > 0}
	if mk.Member == "modules" {
		a.key = "name"
	}
	return a
}

// what names the entries in prose: "module" or "file".
func (a *authoring) what() string { return strings.TrimSuffix(a.list, "s") }

// localAttrs names the attributes of local authoring, for messages.
func (a *authoring) localAttrs() string {
	if a.main {
		return aMainModule + " and " + a.list
	}
	return a.list
}

// attrs are the authoring attributes of the kind's schema.
func (a *authoring) attrs() map[string]schema.Attribute {
	out := map[string]schema.Attribute{}
	typeCheck := oneOf("a "+a.manifest.Kind+" media type", a.manifest.MediaTypes)
	if len(a.manifest.MediaTypes) == 0 {
		typeCheck = stringCheck(stringRules{pattern: lazyre.New(wire.MediaTypeRe.String()), maxLen: ptr(255)})
	}
	d := a.descriptions()
	entry := map[string]schema.Attribute{
		a.key: schema.StringAttribute{Required: true, Description: d[a.key], Validators: []validator.String{stringCheck(stringRules{
			pattern: lazyre.New(entryPathPattern), maxLen: ptr(240)})}},
		"content_type": schema.StringAttribute{Required: true, Description: d["content_type"], Validators: []validator.String{typeCheck}},
		"content_file": schema.StringAttribute{Required: true, Description: d["content_file"]},
		"size":         schema.Int64Attribute{Computed: true, Description: d["size"]},
		"digest":       schema.StringAttribute{Computed: true, Description: d["digest"]},
	}
	out[a.list] = schema.ListNestedAttribute{Optional: true, Description: d[a.list],
		Validators:   []validator.List{collectionCheck(ptr(1), ptr(a.manifest.MaxEntries), false, stringRules{})},
		NestedObject: schema.NestedAttributeObject{Attributes: entry}}
	if a.main {
		out[aMainModule] = schema.StringAttribute{Optional: true, Description: d[aMainModule]}
	}
	return out
}

// descriptions describe the authoring attributes and each entry's members.
func (a *authoring) descriptions() map[string]string {
	mk := a.manifest
	types := "any lowercase `type/subtype` without parameters, such as `text/html` or `image/png`"
	if len(mk.MediaTypes) == 1 {
		types = "`" + mk.MediaTypes[0] + "`, the only media type a " + mk.Kind + " manifest admits"
	} else if len(mk.MediaTypes) > 1 {
		types = "one of `" + strings.Join(mk.MediaTypes, "`, `") + "`"
	}
	order := "The manifest lists them sorted by " + a.key + ", so their order here does not matter."
	if mk.Ordered {
		order = "Their order is meaning: the manifest keeps it, so reordering them is a different " + mk.Kind + "."
	}
	d := map[string]string{
		a.list: fmt.Sprintf("Local %ss of the %s manifest, uploaded at apply before the resource is created (at most %d). %s",
			a.what(), mk.Kind, mk.MaxEntries, order),
		"content_type": "Media type of the " + a.what() + ": " + types + ".",
		"content_file": "Local file holding the " + a.what() + " bytes; relative paths resolve against OpenTofu's working directory, so write `\"${path.module}/...\"`.",
		"size":         "Size of content_file in bytes, read at plan.",
		"digest":       "`sha256:` digest of content_file, read at plan; changed bytes plan a new manifest digest.",
	}
	if a.key == "name" {
		d["name"] = "Module path inside the bundle, such as `index.js` or `lib/util.js`."
	} else {
		d["path"] = "Path of the file inside the bundle, such as `index.html` or `0001_init.sql`: relative, slash-separated, unique."
	}
	if a.main {
		d[aMainModule] = "Name of the entry module: one of modules, with a loadable media type (" +
			"`" + strings.Join(mk.Loadable, "`, `") + "`)."
	}
	return d
}
