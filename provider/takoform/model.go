package takoform

import (
	"fmt"
	"strings"

	"github.com/takokit/takokit/catalog/model"
)

// kindModel is everything the resource type of one (apiVersion, kind) derives from
// the catalog: the union of its versions' fields and outputs (docs/catalog-rules.md#loader-rules).
type kindModel struct {
	cat      *model.Catalog
	kind     *model.Kind
	typeName string
	newest   *model.Form
	// fields is the union over versions, each shaped by the newest version declaring it.
	fields  []model.Field
	outputs []model.Output
	// anyUpdate: some version declares update (the kind gets update_timeout).
	anyUpdate bool
	revision  bool
	bundle    *authoring // local authoring of an artifact-addressed Form; nil for any other
	markers   []*model.Transition
}

func newKindModel(cat *model.Catalog, k *model.Kind) (*kindModel, error) {
	if len(k.Versions) == 0 {
		return nil, fmt.Errorf("kind %s %s has no definition version", k.APIVersion, k.Kind)
	}
	m := &kindModel{cat: cat, kind: k, typeName: k.TypeName, newest: k.DefaultCreate()}
	if m.typeName == "" {
		m.typeName = "takoform_" + snakeSlug(k.Slug)
	}
	seenField := map[string]int{}
	seenOut := map[string]int{}
	// newest first, so the newest declaring version shapes each attribute
	for i := len(k.Versions) - 1; i >= 0; i-- {
		f := k.Versions[i]
		if f.DeclaresUpdate {
			m.anyUpdate = true
		}
		for _, fl := range f.Fields {
			if _, ok := seenField[fl.Wire]; !ok {
				seenField[fl.Wire] = len(m.fields)
				m.fields = append(m.fields, fl)
			}
		}
		for _, o := range f.Outputs {
			if _, ok := seenOut[o.Wire]; !ok {
				seenOut[o.Wire] = len(m.outputs)
				m.outputs = append(m.outputs, o)
			}
		}
	}
	m.revision = m.newest.Role == "revision"
	m.bundle = newAuthoring(k, m.newest)
	for _, t := range cat.Transitions() {
		if t.From.APIVersion == k.APIVersion && t.From.Kind == k.Kind {
			m.markers = append(m.markers, t)
		}
	}
	return m, nil
}

// artifactAddressed: the desired schema has exactly one property, manifestDigest.
func artifactAddressed(f *model.Form) bool {
	return len(f.Fields) == 1 && f.Fields[0].Wire == "manifestDigest" && f.Fields[0].Required
}

func snakeSlug(slug string) string {
	b := []byte(slug)
	for i, c := range b {
		if c == '-' {
			b[i] = '_'
		}
	}
	return string(b)
}

// form returns the definition of this kind named by version, if carried.
func (m *kindModel) form(version string) (*model.Form, bool) {
	return m.kind.Version(version)
}

func (m *kindModel) versions() []string {
	out := make([]string, len(m.kind.Versions))
	for i, f := range m.kind.Versions {
		out[i] = f.Ref.DefinitionVersion
	}
	return out
}

// requiredEverywhere: the field is required by every version of the kind.
func (m *kindModel) requiredEverywhere(wire string) bool {
	for _, f := range m.kind.Versions {
		fl, ok := f.Field(wire)
		if !ok || !fl.Required {
			return false
		}
	}
	return true
}

// alwaysReplace: in every version declaring the desired value at ptr — a top-level
// field ("/worker") or a member of an object field ("/assets/bundle") — changing it
// needs replacement.
func (m *kindModel) alwaysReplace(ptr string) bool {
	for _, f := range m.kind.Versions {
		if declared, immutable := immutableAt(f, ptr); declared && f.DeclaresUpdate && !immutable {
			return false
		}
	}
	return true
}

// replaces reports whether a change of the desired value at ptr under ref f needs
// replacement: f cannot update, or the value (or the object holding it) is immutable.
func replaces(f *model.Form, ptr string) bool {
	if !f.DeclaresUpdate || f.Role == "revision" {
		return true
	}
	_, immutable := immutableAt(f, ptr)
	return immutable
}

// immutableAt reports whether f declares the desired value at ptr and whether it is
// immutable there: by the field's or member's own mark, by immutableFields naming the
// pointer, or, for a member, by its object being immutable as a whole.
func immutableAt(f *model.Form, ptr string) (declared, immutable bool) {
	top, _, isMember := strings.Cut(strings.TrimPrefix(ptr, "/"), "/")
	var fl *model.Field
	for i := range f.Fields {
		if f.Fields[i].Pointer == "/"+top {
			fl = &f.Fields[i]
		}
	}
	if fl == nil {
		return false, false
	}
	immutable = fl.Immutable || f.Immutable[fl.Pointer]
	if !isMember {
		return true, immutable
	}
	mem := f.ObjectMember(ptr)
	if mem == nil {
		return false, false
	}
	return true, immutable || mem.Immutable || f.Immutable[ptr]
}
