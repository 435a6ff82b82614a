package model

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Form returns the definition named exactly by all four members of ref.
func (c *Catalog) Form(ref wire.FormRef) (*Form, bool) {
	f, ok := c.byRef[ref]
	return f, ok
}

// Forms returns every loaded definition, sorted by apiVersion, kind, then version.
func (c *Catalog) Forms() []*Form { return slices.Clone(c.forms) }

// Kinds returns one entry per (apiVersion, kind), sorted.
func (c *Catalog) Kinds() []*Kind { return slices.Clone(c.kinds) }

// Kind looks up all versions of one (apiVersion, kind).
func (c *Catalog) Kind(apiVersion, kind string) (*Kind, bool) {
	for _, k := range c.kinds {
		if k.APIVersion == apiVersion && k.Kind == kind {
			return k, true
		}
	}
	return nil, false
}

// Interfaces returns every loaded Interface, sorted by name then version.
func (c *Catalog) Interfaces() []*Interface { return slices.Clone(c.interfaces) }

// Interface looks up an Interface by name and version.
func (c *Catalog) Interface(name, version string) (*Interface, bool) {
	for _, i := range c.interfaces {
		if i.Ref.Name == name && i.Ref.Version == version {
			return i, true
		}
	}
	return nil, false
}

// Bindings returns every loaded Binding, sorted by name then version.
func (c *Catalog) Bindings() []*Binding { return slices.Clone(c.bindings) }

// Binding looks up a Binding by name and version.
func (c *Catalog) Binding(name, version string) (*Binding, bool) {
	for _, b := range c.bindings {
		if b.Ref.Name == name && b.Ref.Version == version {
			return b, true
		}
	}
	return nil, false
}

// Transitions returns the declared transitions in marker order.
func (c *Catalog) Transitions() []*Transition { return slices.Clone(c.transitions) }

// Transition looks up a declared transition by marker.
func (c *Catalog) Transition(marker string) (*Transition, bool) {
	for _, t := range c.transitions {
		if t.Marker == marker {
			return t, true
		}
	}
	return nil, false
}

// TransitionsFrom returns the transitions whose from end is exactly ref.
func (c *Catalog) TransitionsFrom(ref wire.FormRef) []*Transition {
	var out []*Transition
	for _, t := range c.transitions {
		if t.From == ref {
			out = append(out, t)
		}
	}
	return out
}

// DefaultCreate returns the newest definition version by semantic-version precedence:
// the ref new resources of this kind are created under.
func (k *Kind) DefaultCreate() *Form {
	if len(k.Versions) == 0 {
		return nil
	}
	return k.Versions[len(k.Versions)-1]
}

// Version returns the definition version named v.
func (k *Kind) Version(v string) (*Form, bool) {
	for _, f := range k.Versions {
		if f.Ref.DefinitionVersion == v {
			return f, true
		}
	}
	return nil, false
}

// Field returns the top-level desired field with the given wire name.
func (f *Form) Field(wireName string) (*Field, bool) {
	for i := range f.Fields {
		if f.Fields[i].Wire == wireName {
			return &f.Fields[i], true
		}
	}
	return nil, false
}

// Output returns the declared output with the given wire name.
func (f *Form) Output(wireName string) (*Output, bool) {
	for i := range f.Outputs {
		if f.Outputs[i].Wire == wireName {
			return &f.Outputs[i], true
		}
	}
	return nil, false
}

// HasCapability reports whether the Form lists the lifecycle capability name.
func (f *Form) HasCapability(name string) bool { return slices.Contains(f.Capabilities, name) }

// HasOutputs reports whether the Form declares an outputSchema.
func (f *Form) HasOutputs() bool { return f.OutputJSON != nil }

// Provides reports whether the Form lists ref in providedInterfaces.
func (f *Form) Provides(ref wire.InterfaceRef) bool { return slices.Contains(f.Provided, ref) }

// TypeNameConflicts returns every provider type name that more than one loaded
// (apiVersion, kind) would produce (docs/catalog-rules.md#naming), with the kinds that share it.
// hostsim serves such a catalog; a provider over it must refuse to start.
func (c *Catalog) TypeNameConflicts() map[string][]*Kind {
	by := map[string][]*Kind{}
	for _, k := range c.kinds {
		by[k.TypeName] = append(by[k.TypeName], k)
	}
	out := map[string][]*Kind{}
	for name, ks := range by {
		if len(ks) > 1 {
			out[name] = ks
		}
	}
	return out
}

// CanonicalFixture returns the Form's positive fixture named "canonical". A definition
// may declare no conformanceFixtures at all (the published definition schema allows
// it); then ok is false and why is the note a check that needs a fixture reports when
// it is not applicable to this Form.
func (f *Form) CanonicalFixture() (fx Fixture, why string, ok bool) {
	for _, x := range f.Fixtures {
		if x.Name == "canonical" {
			return x, "", true
		}
	}
	return Fixture{}, fmt.Sprintf("%s %s declares no conformanceFixtures, so no check can build a valid instance of it from its definition", f.Ref.Kind, f.Ref.DefinitionVersion), false
}

// Regexp returns the output's Pattern compiled (once per process, see CompilePattern),
// or nil when it declares none. The loader refuses a pattern that does not compile.
func (o *Output) Regexp() *regexp.Regexp {
	if o.Pattern == "" {
		return nil
	}
	re, err := CompilePattern(o.Pattern)
	if err != nil {
		return nil
	}
	return re
}

// ObjectMember returns the member a two-token pointer names inside a closed object
// property ("/assets/bundle"), or nil.
func (f *Form) ObjectMember(ptr string) *Field {
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	if len(toks) != 2 || !strings.HasPrefix(ptr, "/") {
		return nil
	}
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	top, ok := f.Field(unescape.Replace(toks[0]))
	if !ok || top.Kind != FieldObject {
		return nil
	}
	name := unescape.Replace(toks[1])
	for i := range top.Members {
		if top.Members[i].Wire == name {
			return &top.Members[i]
		}
	}
	return nil
}
