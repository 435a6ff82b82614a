package catalog

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/takokit/takokit/catalog/wire"
)

// Loading one Form Definition (docs/catalog-rules.md#documents).

var (
	pointerRe      = lazyRegexp(`^(?:/(?:[^~/]|~0|~1)*)+$`)
	fixtureNameRe  = lazyRegexp(`^[a-z0-9][a-z0-9._-]{0,127}$`)
	failureRe      = lazyRegexp(`^[a-z][a-z0-9._-]{2,127}$`)
	packagePathRe  = lazyRegexp(`^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$`)
	reservedGroups = []string{"forms.takoform.com/v1alpha1", "forms.takoform.com/v1alpha2"}
	allCaps        = []string{"create", "read", "update", "delete", "import", "observe", "refresh"}
	revisionCaps   = []string{"create", "read", "delete", "import", "observe"}
	fixtureStages  = []string{"desired", "observed", "output"}
)

// formBuild is a definition being loaded, with what later cross checks need.
type formBuild struct {
	form     *Form
	pkg      pkgDir
	file     string
	doc      definitionDoc
	ctx      *desiredCtx
	accepted []*Binding   // resolved acceptedBindings, same order
	schemas  *formSchemas // the Form's JSON Schema engine
}

func loadForm(fsys fs.FS, p pkgDir, ifaces []*Interface, bindings []*Binding, ps *problems) *formBuild {
	file := path.Join(p.dir, definitionFile)
	b := &formBuild{pkg: p, file: file}
	raw, digest, ok := readDocDigest(fsys, file, &b.doc, ps, !ps.prechecked)
	if !ok {
		return nil
	}
	d := &b.doc
	before := len(ps.list)
	checkDefinitionMembers(file, p, d, ps)
	f := &Form{
		Ref:  wire.FormRef{APIVersion: d.APIVersion, Kind: d.Kind, DefinitionVersion: d.DefinitionVersion, SchemaDigest: digest},
		Slug: p.slug, TypeName: TypeName(p.slug), Role: d.Role, Title: d.Title, Description: deref(d.Description),
		DefinitionJSON: raw, DesiredJSON: []byte(d.DesiredSchema), Immutable: map[string]bool{},
	}
	if d.OutputSchema != nil {
		f.OutputJSON = []byte(d.OutputSchema)
	}
	if d.ObservedSchema != nil {
		f.ObservedJSON = []byte(d.ObservedSchema)
	}
	b.form = f
	b.schemas = &formSchemas{form: f, fields: map[string]*jsonschema.Schema{}}
	f.SetSchemas(b.schemas)
	b.ctx = &desiredCtx{file: file, ps: ps, legit: map[string]bool{}}
	b.loadDesired()
	b.loadObservedAndOutputs()
	b.checkImmutable()
	b.checkCapabilities()
	for i, r := range d.ProvidedInterfaces {
		ptr := fmt.Sprintf("/providedInterfaces/%d", i)
		if slices.Contains(f.Provided, r.iface()) {
			ps.add(file, ptr, "providedInterfaces lists %s twice", r.Name)
		}
		resolveInterface(file, ptr, r.iface(), ifaces, ps)
		f.Provided = append(f.Provided, r.iface())
	}
	for i, r := range d.AcceptedBindings {
		ptr := fmt.Sprintf("/acceptedBindings/%d", i)
		if slices.Contains(f.Accepted, r.binding()) {
			ps.add(file, ptr, "acceptedBindings lists %s twice", r.Name)
		}
		b.accepted = append(b.accepted, resolveBinding(file, ptr, r.binding(), bindings, ps))
		f.Accepted = append(f.Accepted, r.binding())
	}
	if len(d.ProvidedInterfaces) > 64 || len(d.AcceptedBindings) > 64 {
		ps.add(file, "", "providedInterfaces and acceptedBindings list at most 64 entries each")
	}
	b.checkBindingLists()
	b.checkNames()
	checkFixtureDecls(file, d, ps)
	if len(ps.list) > before { // Load marks the kind broken, so what names it adds no line
		return nil
	}
	return b
}

func checkDefinitionMembers(file string, p pkgDir, d *definitionDoc, ps *problems) {
	if !wire.ValidGroup(d.APIVersion) {
		ps.add(file, "/apiVersion", "apiVersion %q is not a Form group (a DNS-like name, /v, a number and an optional alpha/beta number, such as edge.forms.takokit.dev/v1alpha1)", d.APIVersion)
	} else if slices.Contains(reservedGroups, d.APIVersion) {
		ps.add(file, "/apiVersion", "apiVersion %q is reserved by Takoform; use your own Form group", d.APIVersion)
	}
	if !wire.ValidKind(d.Kind) {
		ps.add(file, "/kind", "kind %q must match ^[A-Z][A-Za-z0-9]{0,63}$", d.Kind)
	} else if strings.ReplaceAll(p.slug, "-", "") != strings.ToLower(d.Kind) {
		ps.add(file, "/kind", "kind %q does not match its kind-slug directory %q; the slug is the kind in lower case with hyphens between words (rename the directory)", d.Kind, p.slug)
	}
	if !wire.ValidSemver(d.DefinitionVersion) {
		ps.add(file, "/definitionVersion", "definitionVersion %q is not a semantic version such as 0.1.0", d.DefinitionVersion)
	}
	if p.verDir != "" && p.verDir != d.DefinitionVersion {
		ps.add(file, "/definitionVersion", "definitionVersion %q must equal its version directory %q", d.DefinitionVersion, p.verDir)
	}
	checkProse(file, &d.Title, d.Description, ps)
	if !slices.Contains(roles, d.Role) {
		ps.add(file, "/role", "role %q must be one of %s", d.Role, strings.Join(roles, ", "))
	}
}

// derivedCapabilities is the lifecycle list of docs/catalog-rules.md#loader-rules.
func derivedCapabilities(role string, props []string, immutable map[string]bool) []string {
	update := false
	if role != "revision" {
		for _, p := range props {
			if !immutable["/"+p] { // a property name is its own pointer token: it holds no ~ or /
				update = true
			}
		}
	}
	if update {
		return []string{"create", "read", "update", "delete", "import", "observe"}
	}
	return []string{"create", "read", "delete", "import", "observe"}
}

func (b *formBuild) checkCapabilities() {
	caps := b.doc.LifecycleCapabilities
	ps, file := b.ctx.ps, b.file
	for i, c := range caps {
		ptr := fmt.Sprintf("/lifecycleCapabilities/%d", i)
		switch {
		case !slices.Contains(allCaps, c):
			ps.add(file, ptr, "unknown lifecycle capability %q", c)
		case slices.Index(caps, c) != i:
			ps.add(file, ptr, "capability %q is listed twice", c)
		case b.doc.Role == "revision" && !slices.Contains(revisionCaps, c):
			ps.add(file, ptr, "a revision Form may not list %q; revisions are never updated or refreshed", c)
		}
	}
	var props []string
	for _, fl := range b.form.Fields {
		props = append(props, fl.Wire)
	}
	want := derivedCapabilities(b.doc.Role, props, b.form.Immutable)
	if !slices.Equal(caps, want) {
		why := "no top-level desired property is mutable"
		if b.doc.Role == "revision" {
			why = "the role is revision"
		} else if slices.Contains(want, "update") {
			why = "a top-level desired property is not in immutableFields"
		}
		ps.add(file, "/lifecycleCapabilities", "lifecycleCapabilities must be exactly [%s] because %s; got [%s]", strings.Join(want, " "), why, strings.Join(caps, " "))
	}
	b.form.Capabilities = want
	b.form.DeclaresUpdate = slices.Contains(want, "update")
}

func (b *formBuild) checkImmutable() {
	ps, file, f := b.ctx.ps, b.file, b.form
	for i, p := range b.doc.ImmutableFields {
		ptr := fmt.Sprintf("/immutableFields/%d", i)
		name := strings.TrimPrefix(p, "/")
		switch {
		case !pointerRe.MatchString(p):
			ps.add(file, ptr, "%q is not a JSON Pointer", p)
		case slices.Index(b.doc.ImmutableFields, p) != i:
			ps.add(file, ptr, "%q is listed twice", p)
		case strings.Contains(name, "/"):
			if m := f.ObjectMember(p); m != nil {
				m.Immutable = true
				f.Immutable[p] = true
			} else {
				ps.add(file, ptr, "%q names a nested node that is not a member of a closed object property; immutableFields name a top-level desired property or a member of an object property", p)
			}
		default: // an escaped token names nothing: property and output names hold no ~ or /
			if _, ok := f.Output(name); ok {
				ps.add(file, ptr, "%q names an output; outputs are host answers, not desired state, and cannot be immutable fields", p)
			} else if fl, ok := f.Field(name); !ok {
				ps.add(file, ptr, "%q names no top-level desired property", p)
			} else {
				fl.Immutable = true
				f.Immutable[p] = true
			}
		}
	}
}

func checkFixtureDecls(file string, d *definitionDoc, ps *problems) {
	if len(d.ConformanceFixtures) > 32 || len(d.NegativeConformanceFixtures) > 32 {
		ps.add(file, "", "a definition lists at most 32 positive and 32 negative fixtures")
	}
	checkPath := func(ptr, p string) {
		if !validPackagePath(p) {
			ps.add(file, ptr, "%q is not a package path (1..240 characters of [A-Za-z0-9._-] segments, no . or ..)", p)
		}
	}
	names := map[string]bool{}
	for i, fx := range d.ConformanceFixtures {
		ptr := fmt.Sprintf("/conformanceFixtures/%d", i)
		if !fixtureNameRe.MatchString(fx.Name) || names[fx.Name] {
			ps.add(file, ptr+"/name", "fixture name %q must match ^[a-z0-9][a-z0-9._-]{0,127}$ and be unique", fx.Name)
		}
		names[fx.Name] = true
		checkPath(ptr+"/desiredPath", fx.DesiredPath)
		if fx.ObservedPath != nil {
			checkPath(ptr+"/observedPath", *fx.ObservedPath)
		}
		if fx.OutputPath != nil {
			checkPath(ptr+"/outputPath", *fx.OutputPath)
		}
	}
	for i, fx := range d.NegativeConformanceFixtures {
		ptr := fmt.Sprintf("/negativeConformanceFixtures/%d", i)
		if !fixtureNameRe.MatchString(fx.Name) || names[fx.Name] {
			ps.add(file, ptr+"/name", "fixture name %q must match ^[a-z0-9][a-z0-9._-]{0,127}$ and be unique", fx.Name)
		}
		names[fx.Name] = true
		if !slices.Contains(fixtureStages, fx.Stage) {
			ps.add(file, ptr+"/stage", "stage %q must be one of desired, observed, output", fx.Stage)
		}
		if !failureRe.MatchString(fx.ExpectedFailure) {
			ps.add(file, ptr+"/expectedFailure", "expectedFailure %q must match ^[a-z][a-z0-9._-]{2,127}$", fx.ExpectedFailure)
		}
		checkPath(ptr+"/inputPath", fx.InputPath)
	}
}

func validPackagePath(p string) bool {
	if len(p) < 1 || len(p) > 240 || !packagePathRe.MatchString(p) {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			return false
		}
	}
	return true
}
