package profile

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/jsonfile"
	"github.com/takokit/takokit/hostsim/internal/nearest"
)

// CheckCatalog holds every profile file merged into p to the catalog the host
// serves: a kind, version, contract, field, limit, operation or enum value the
// catalog does not know is refused, naming the file, the line and the JSON
// Pointer of the member — a misspelled restriction must never be silently not
// applied (docs/guides/partial-hosts.md). Built-in profiles are held to the
// built-in catalog by the package's tests.
func (p *Profile) CheckCatalog(cat *catalog.Catalog) error {
	var problems []string
	for _, f := range p.files {
		c := &checker{cat: cat, f: f}
		c.doc()
		problems = append(problems, c.problems...)
	}
	if len(problems) == 0 {
		return nil
	}
	// a misspelling, or a real name the catalog gives another meaning (an operation the
	// kind lacks, a field it does not have): the lines name each member and what is there
	return fmt.Errorf("the profile names what the catalog does not hold; correct or remove each member below (docs/guides/partial-hosts.md):\n  %s", strings.Join(problems, "\n  "))
}

// checker walks one profile file's own document.
type checker struct {
	cat      *catalog.Catalog
	f        file
	problems []string
}

func (c *checker) bad(ptr []string, format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf("%s:%d: %s: %s", c.f.path, jsonfile.Line(c.f.data, ptr), pointer(ptr), fmt.Sprintf(format, args...)))
}

func (c *checker) doc() {
	d := c.f.doc
	if v, ok := d["forms"]; ok {
		c.selection([]string{"forms"}, v, c.kindName)
	}
	if v, ok := d["interfaces"]; ok {
		c.selection([]string{"interfaces"}, v, c.contractName(c.interfaceRefs()))
	}
	if v, ok := d["bindings"]; ok {
		c.selection([]string{"bindings"}, v, c.contractName(c.bindingRefs()))
	}
	for _, member := range []string{"operations", "supportedEnums", "supportedRanges", "limits"} {
		m, _ := d[member].(map[string]any)
		for _, key := range sortedKeys(m) {
			at := []string{member, key}
			forms := c.formsOf(at, key)
			if forms == nil {
				continue
			}
			switch member {
			case "operations":
				c.operations(at, m[key], forms)
			case "supportedEnums":
				c.enums(at, m[key], forms)
			case "supportedRanges":
				c.ranges(at, m[key], forms)
			case "limits":
				c.limits(at, m[key], forms)
			}
		}
	}
	if a, ok := d["async"].(map[string]any); ok {
		kinds, _ := a["kinds"].([]any)
		for i, k := range kinds {
			if s, _ := k.(string); !c.isKind(s) {
				c.bad([]string{"async", "kinds", fmt.Sprint(i)}, "the catalog has no kind %q%s", s, c.suggestKind(s))
			}
		}
	}
	faults, _ := d["faults"].([]any)
	for i, f := range faults {
		m, _ := f.(map[string]any)
		if k, ok := m["kind"].(string); ok && !c.isKind(k) {
			c.bad([]string{"faults", fmt.Sprint(i), "kind"}, "the catalog has no kind %q%s: the fault would never fire", k, c.suggestKind(k))
		}
	}
}

// selection checks include and exclude lists with name(s) a check accepts.
func (c *checker) selection(at []string, v any, known func(string) string) {
	m, _ := v.(map[string]any)
	for _, member := range []string{"include", "exclude"} {
		list, _ := m[member].([]any)
		for i, e := range list {
			s, _ := e.(string)
			if why := known(s); why != "" {
				c.bad(append(slices.Clone(at), member, fmt.Sprint(i)), "%s", why)
			}
		}
	}
}

// kindName accepts Kind or Kind@definitionVersion of the catalog.
func (c *checker) kindName(s string) string {
	kind, version, versioned := strings.Cut(s, "@")
	if !c.isKind(kind) {
		return fmt.Sprintf("the catalog has no kind %q%s", kind, c.suggestKind(kind))
	}
	if versioned && len(c.forms(kind, version)) == 0 {
		return fmt.Sprintf("the catalog has no %s %s (it has %s)", kind, version, strings.Join(c.versions(kind), ", "))
	}
	return ""
}

// contractName accepts name or name@version of the given contracts.
func (c *checker) contractName(refs []string) func(string) string {
	return func(s string) string {
		name, version, versioned := strings.Cut(s, "@")
		for _, r := range refs {
			rn, rv, _ := strings.Cut(r, "@")
			if rn == name && (!versioned || rv == version) {
				return ""
			}
		}
		return fmt.Sprintf("the catalog has no contract %q%s; it has %s", s, nearest.Suggest(s, refs), strings.Join(refs, ", "))
	}
}

func (c *checker) interfaceRefs() []string {
	var out []string
	for _, i := range c.cat.Interfaces() {
		out = append(out, i.Ref.Name+"@"+i.Ref.Version)
	}
	return out
}

func (c *checker) bindingRefs() []string {
	var out []string
	for _, b := range c.cat.Bindings() {
		out = append(out, b.Ref.Name+"@"+b.Ref.Version)
	}
	return out
}

// formsOf resolves a per-kind key (Kind or Kind@version) to its Forms, or
// reports it and answers nil.
func (c *checker) formsOf(at []string, key string) []*catalog.Form {
	if why := c.kindName(key); why != "" {
		c.bad(at, "%s", why)
		return nil
	}
	kind, version, _ := strings.Cut(key, "@")
	return c.forms(kind, version)
}

func (c *checker) forms(kind, version string) []*catalog.Form {
	var out []*catalog.Form
	for _, f := range c.cat.Forms() {
		if f.Ref.Kind == kind && (version == "" || f.Ref.DefinitionVersion == version) {
			out = append(out, f)
		}
	}
	return out
}

func (c *checker) versions(kind string) []string {
	var out []string
	for _, f := range c.forms(kind, "") {
		out = append(out, f.Ref.DefinitionVersion)
	}
	return out
}

func (c *checker) isKind(s string) bool { return len(c.forms(s, "")) > 0 }

func (c *checker) kinds() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range c.cat.Forms() {
		if !seen[f.Ref.Kind] {
			seen[f.Ref.Kind] = true
			out = append(out, f.Ref.Kind)
		}
	}
	return out
}

func (c *checker) suggestKind(s string) string { return nearest.Suggest(s, c.kinds()) }

// operations: each operation is a lifecycle capability of the kind's Forms.
func (c *checker) operations(at []string, v any, forms []*catalog.Form) {
	list, _ := v.([]any)
	var caps []string
	for _, f := range forms {
		for _, op := range f.Capabilities {
			if !slices.Contains(caps, op) {
				caps = append(caps, op)
			}
		}
	}
	for i, e := range list {
		if s, _ := e.(string); !slices.Contains(caps, s) {
			c.bad(append(slices.Clone(at), fmt.Sprint(i)), "%q is not a lifecycle capability of %s%s; it has %s", s, at[1], nearest.Suggest(s, caps), strings.Join(caps, ", "))
		}
	}
}

// enums: each key is a field path of the kind and each value one of its enum.
func (c *checker) enums(at []string, v any, forms []*catalog.Form) {
	m, _ := v.(map[string]any)
	for _, key := range sortedKeys(m) {
		fl, why := c.field(forms, key)
		if why != "" {
			c.bad(append(slices.Clone(at), key), "%s", why)
			continue
		}
		list, _ := m[key].([]any)
		for i, e := range list {
			if s, _ := e.(string); len(fl.Enum) > 0 && !slices.Contains(fl.Enum, s) {
				c.bad(append(slices.Clone(at), key, fmt.Sprint(i)), "%q is not a value of %s.%s%s; its values: %s", s, at[1], key, nearest.Suggest(s, fl.Enum), strings.Join(fl.Enum, ", "))
			}
		}
	}
}

// ranges: each key is an integer or string field path of the kind.
func (c *checker) ranges(at []string, v any, forms []*catalog.Form) {
	m, _ := v.(map[string]any)
	for _, key := range sortedKeys(m) {
		if _, why := c.field(forms, key); why != "" {
			c.bad(append(slices.Clone(at), key), "%s", why)
		}
	}
}

// limits: maximumBundleFiles on an artifact-backed kind, maximumBundleBytes on
// one or on a kind that references one (a WorkerVersion's bundle: hostsim holds
// the manifest to the lowest of both Forms' ceilings), or maximum + a collection
// field path of the kind. A bundle limit on any other kind would be published and
// never applied, so it is refused like a misspelling.
func (c *checker) limits(at []string, v any, forms []*catalog.Form) {
	m, _ := v.(map[string]any)
	mk, artifactBacked := wire.ManifestKindOf(forms[0].Ref.Kind)
	bundled := artifactBacked || referencesArtifacts(forms)
	for _, key := range sortedKeys(m) {
		n, _ := m[key].(json.Number).Int64()
		if key == LimitBundleBytes {
			switch {
			case !bundled:
				c.bad(append(slices.Clone(at), key), "%s neither commits to nor references an artifact manifest, so it has no limit %s; only %s publish it",
					at[1], key, strings.Join(c.bundledKinds(), ", "))
			case n > wire.MaxBundleBytes:
				c.bad(append(slices.Clone(at), key), "%d is above the portable %s %d; a host profile can only tighten it", n, key, wire.MaxBundleBytes)
			}
			continue
		}
		if key == LimitBundleFiles {
			switch {
			case !artifactBacked:
				c.bad(append(slices.Clone(at), key), "%s is not artifact-backed, so it has no limit %s; only a Form that commits to an artifact manifest (%s) publishes it",
					at[1], key, strings.Join(c.artifactKinds(), ", "))
			case n > mk.MaxEntries:
				c.bad(append(slices.Clone(at), key), "%d is above the portable %s %d of a %s manifest; a host profile can only tighten it", n, key, mk.MaxEntries, mk.Kind)
			}
			continue
		}
		ok := false
		for _, f := range forms {
			if _, found := limitField(f, key); found {
				ok = true
			}
		}
		if !ok {
			var known []string
			for _, f := range forms {
				known = append(known, limitKeys(f.Fields, "")...)
			}
			if bundled {
				known = append(known, LimitBundleBytes)
			}
			if artifactBacked {
				known = append(known, LimitBundleFiles)
			}
			has := "it has none"
			if len(known) > 0 {
				has = "its limits: " + strings.Join(known, ", ")
			}
			c.bad(append(slices.Clone(at), key), "%s has no limit %q%s; %s", at[1], key, nearest.Suggest(key, known), has)
		}
	}
}

// artifactKinds are the Form kinds of the catalog that commit to a manifest kind.
func (c *checker) artifactKinds() []string { return c.kindsWhere(commitsToManifest) }

// bundledKinds are the Form kinds of the catalog that commit to or reference a
// manifest kind, in catalog order.
func (c *checker) bundledKinds() []string {
	return c.kindsWhere(func(k string) bool { return commitsToManifest(k) || referencesArtifacts(c.forms(k, "")) })
}

// kindsWhere are the catalog's Form kinds for which keep is true, in catalog order.
func (c *checker) kindsWhere(keep func(kind string) bool) []string {
	var out []string
	for _, k := range c.kinds() {
		if keep(k) {
			out = append(out, k)
		}
	}
	return out
}

func commitsToManifest(kind string) bool {
	_, ok := wire.ManifestKindOf(kind)
	return ok
}

// referencesArtifacts reports whether a field of forms, at any depth, references
// a Form kind that commits to a manifest kind.
func referencesArtifacts(forms []*catalog.Form) bool {
	for _, f := range forms {
		if fieldsReferenceArtifacts(f.Fields) {
			return true
		}
	}
	return false
}

func fieldsReferenceArtifacts(fields []catalog.Field) bool {
	for _, fl := range fields {
		if fl.Ref != nil && commitsToManifest(fl.Ref.Kind) || fieldsReferenceArtifacts(fl.Members) {
			return true
		}
	}
	return false
}

// limitKeys are the limits of the collection fields (docs/guides/partial-hosts.md).
func limitKeys(fields []catalog.Field, joined string) []string {
	var out []string
	for _, fl := range fields {
		name := joined + upperFirst(fl.Wire)
		switch fl.Kind {
		case catalog.FieldStringSet, catalog.FieldStringList, catalog.FieldBindingList, catalog.FieldObjectList, catalog.FieldJSONMap:
			out = append(out, "maximum"+name)
		}
		out = append(out, limitKeys(fl.Members, name)...)
	}
	return out
}

// field finds the dotted wire path in any of forms, or says why not.
func (c *checker) field(forms []*catalog.Form, dotted string) (*catalog.Field, string) {
	var known []string
	for _, f := range forms {
		fields := f.Fields
		var hit *catalog.Field
		for _, part := range strings.Split(dotted, ".") {
			hit = nil
			for i := range fields {
				if fields[i].Wire == part {
					hit = &fields[i]
				}
			}
			if hit == nil {
				break
			}
			fields = hit.Members
		}
		if hit != nil {
			return hit, ""
		}
		known = append(known, paths(f.Fields, "")...)
	}
	slices.Sort(known)
	known = slices.Compact(known)
	return nil, fmt.Sprintf("%s has no field %q%s; its fields: %s", forms[0].Ref.Kind, dotted, nearest.Suggest(dotted, known), strings.Join(known, ", "))
}

func paths(fields []catalog.Field, prefix string) []string {
	var out []string
	for _, fl := range fields {
		out = append(out, prefix+fl.Wire)
		out = append(out, paths(fl.Members, prefix+fl.Wire+".")...)
	}
	return out
}

func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString("/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}
