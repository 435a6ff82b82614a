package takoform

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog/model"
)

// The example generator writes HCL already in `tofu fmt` form: one alignment group
// per run of single-line attributes, multi-line values set apart by blank lines.

type hclLine struct {
	key   string
	value []string // one line, or several (first ends with "[" or "({")
}

type hclBlock struct {
	header string
	lines  []hclLine
	blocks []hclBlock
}

func (b hclBlock) render(indent string) string {
	var out strings.Builder
	out.WriteString(indent + b.header + " {\n")
	inner := indent + "  "
	renderLines(&out, b.lines, inner)
	for i, nb := range b.blocks {
		if i > 0 || len(b.lines) > 0 {
			out.WriteString("\n")
		}
		out.WriteString(nb.render(inner))
	}
	out.WriteString(indent + "}\n")
	return out.String()
}

func renderLines(out *strings.Builder, lines []hclLine, indent string) {
	i := 0
	first := true
	for i < len(lines) {
		if !first {
			out.WriteString("\n")
		}
		first = false
		if len(lines[i].value) > 1 {
			l := lines[i]
			out.WriteString(indent + l.key + " = " + l.value[0] + "\n")
			for _, v := range l.value[1:] {
				out.WriteString(indent + v + "\n")
			}
			i++
			continue
		}
		j := i
		width := 0
		for j < len(lines) && len(lines[j].value) == 1 {
			if len(lines[j].key) > width {
				width = len(lines[j].key)
			}
			j++
		}
		for _, l := range lines[i:j] {
			out.WriteString(indent + l.key + strings.Repeat(" ", width-len(l.key)) + " = " + l.value[0] + "\n")
		}
		i = j
	}
}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

func hclString(s string) string {
	b, _ := json.Marshal(s)
	out := string(b)
	out = strings.ReplaceAll(out, `\u003c`, "<")
	out = strings.ReplaceAll(out, `\u003e`, ">")
	out = strings.ReplaceAll(out, `\u0026`, "&")
	return strings.ReplaceAll(out, "${", "$${")
}

// hclScalar renders a JSON scalar (json.Number, string, bool) as HCL.
func hclScalar(v any) string {
	switch x := v.(type) {
	case string:
		return hclString(x)
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	}
	b, _ := json.Marshal(v)
	return hclString(string(b))
}

// exampleLine renders one desired field's example value from a fixture member.
func exampleLine(f *model.Field, v any) (hclLine, bool) {
	if v == nil {
		return hclLine{}, false
	}
	switch f.Kind {
	case model.FieldReference:
		o, _ := v.(map[string]any)
		name, _ := o["name"].(string)
		return hclLine{key: f.Attr, value: []string{hclString(name)}}, true
	case model.FieldStringSet, model.FieldStringList:
		arr, _ := v.([]any)
		parts := make([]string, len(arr))
		for i, e := range arr {
			parts[i] = hclScalar(e)
		}
		return hclLine{key: f.Attr, value: []string{"[" + strings.Join(parts, ", ") + "]"}}, true
	case model.FieldJSONMap:
		o, _ := v.(map[string]any)
		keys := make([]string, 0, len(o))
		for k := range o {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if len(keys) == 0 {
			return hclLine{key: f.Attr, value: []string{"jsonencode({})"}}, true
		}
		lines := []string{"jsonencode({"}
		width := 0
		for _, k := range keys {
			if len(hclString(k)) > width {
				width = len(hclString(k))
			}
		}
		for _, k := range keys {
			q := hclString(k)
			lines = append(lines, "  "+q+strings.Repeat(" ", width-len(q))+" = "+hclScalar(o[k]))
		}
		return hclLine{key: f.Attr, value: append(lines, "})")}, true
	case model.FieldObject:
		o, _ := v.(map[string]any)
		var item []hclLine
		for i := range f.Members {
			if ml, ok := exampleLine(&f.Members[i], o[f.Members[i].Wire]); ok {
				item = append(item, ml)
			}
		}
		var sb strings.Builder
		renderLines(&sb, item, "  ")
		lines := append([]string{"{"}, strings.Split(strings.TrimRight(sb.String(), "\n"), "\n")...)
		return hclLine{key: f.Attr, value: append(lines, "}")}, true
	case model.FieldBindingList, model.FieldObjectList:
		arr, _ := v.([]any)
		if len(arr) == 0 {
			return hclLine{key: f.Attr, value: []string{"[]"}}, true
		}
		lines := []string{"["}
		for _, e := range arr {
			o, _ := e.(map[string]any)
			var item []hclLine
			if f.Kind == model.FieldBindingList {
				ref, _ := o[f.RefMember].(map[string]any)
				item = []hclLine{{key: "name", value: []string{hclScalar(o["name"])}},
					{key: bindingTargetAttr, value: []string{hclScalar(ref["name"])}}}
			} else {
				for i := range f.Members {
					mf := &f.Members[i]
					if ml, ok := exampleLine(mf, o[mf.Wire]); ok {
						item = append(item, ml)
					}
				}
			}
			var sb strings.Builder
			renderLines(&sb, item, "    ")
			lines = append(lines, "  {")
			lines = append(lines, strings.Split(strings.TrimRight(sb.String(), "\n"), "\n")...)
			lines = append(lines, "  },")
		}
		return hclLine{key: f.Attr, value: append(lines, "]")}, true
	}
	return hclLine{key: f.Attr, value: []string{hclScalar(v)}}, true
}

// exampleFixture is the canonical positive fixture of the newest version.
func exampleFixture(form *model.Form) map[string]any {
	for _, fx := range form.Fixtures {
		if fx.Name == "canonical" || len(form.Fixtures) == 1 {
			if v, err := decodeJSON(fx.Desired); err == nil {
				if m, ok := v.(map[string]any); ok {
					return m
				}
			}
		}
	}
	return map[string]any{}
}

// exampleHCL is examples/resources/<type>/resource.tf.
func exampleHCL(m *kindModel) string {
	form := m.newest
	fx := exampleFixture(form)
	res := hclBlock{header: fmt.Sprintf("resource %q %q", m.typeName, "example")}
	if m.revision {
		res.lines = append(res.lines, hclLine{key: aRevisionOwner, value: []string{hclString("team-a/" + m.kind.Slug)}})
	} else {
		res.lines = append(res.lines, hclLine{key: aName, value: []string{hclString("example-" + m.kind.Slug)}})
	}
	for i := range form.Fields {
		f := &form.Fields[i]
		v, ok := fx[f.Wire]
		if !ok || (!f.Required && f.Default != nil && string(mustCanon(v)) == string(mustCanon(rawAny(f.Default)))) {
			continue
		}
		if l, ok := exampleLine(f, v); ok {
			res.lines = append(res.lines, l)
		}
	}
	if m.revision {
		res.blocks = append(res.blocks, hclBlock{header: "lifecycle", lines: []hclLine{{key: "create_before_destroy", value: []string{"true"}}}})
	}
	out := res.render("")
	for _, o := range m.outputs {
		out += "\n" + hclBlock{header: fmt.Sprintf("output %q", o.Attr),
			lines: []hclLine{{key: "value", value: []string{m.typeName + ".example." + o.Attr}}}}.render("")
	}
	return out
}

func rawAny(raw []byte) any {
	v, _ := decodeJSON(raw)
	return v
}

func mustCanon(v any) []byte {
	b, err := canonical(v)
	if err != nil {
		return nil
	}
	return b
}
