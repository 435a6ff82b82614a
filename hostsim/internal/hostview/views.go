package hostview

import (
	"encoding/json"
	"sort"

	"github.com/takokit/takokit/catalog/wire"
)

// Output is one declared output of a resource's recorded Form beside the
// value the host serves for it (docs/protocol.md#outputs).
type Output struct {
	Name, Type, Description string // Type is the declared one: string, integer or boolean
	Value                   any    // the served value; nil when Present is false
	Present                 bool
	Served                  string // the JSON type of the served value ("" when absent)
}

// TypedOutputs lists the outputs r's recorded Form declares, in declaration
// order, with the served values; members the Form does not declare follow.
func (s *Source) TypedOutputs(r *Resource) []Output {
	served := r.Outputs()
	var out []Output
	seen := map[string]bool{}
	if f, ok := s.Host.Cat.Form(wire.FormRef{APIVersion: r.APIVersion, Kind: r.Kind,
		DefinitionVersion: r.DefinitionVersion, SchemaDigest: r.SchemaDigest}); ok {
		for _, o := range f.Outputs {
			v, present := served[o.Wire]
			seen[o.Wire] = true
			out = append(out, Output{Name: o.Wire, Type: o.Type, Description: o.Description, Value: v, Present: present,
				Served: jsonType(v, present)})
		}
	}
	var extra []string
	for k := range served {
		if !seen[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		out = append(out, Output{Name: k, Type: "undeclared", Value: served[k], Present: true, Served: jsonType(served[k], true)})
	}
	return out
}

func jsonType(v any, present bool) string {
	if !present {
		return ""
	}
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case nil:
		return "null"
	case []any:
		return "array"
	default:
		return "object"
	}
}

// Kinds are the kinds of the Forms the host installs, sorted (what a fault
// may be scoped to).
func (s *Source) Kinds() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range s.Host.Forms() {
		if !seen[f.Ref.Kind] {
			seen[f.Ref.Kind] = true
			out = append(out, f.Ref.Kind)
		}
	}
	sort.Strings(out)
	return out
}

// Outcome is what an operation's document says of it: its phase (Accepted,
// Succeeded, Failed, Cancelled) and, when it failed, the error code and message.
type Outcome struct {
	Phase   string
	Code    wire.Code
	Message string
}

// Outcome reads the operation's document.
func (o *Operation) Outcome() Outcome {
	var doc struct {
		Metadata struct {
			Phase string `json:"phase"`
		} `json:"metadata"`
		Error *struct {
			Code    wire.Code `json:"code"`
			Message string    `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(o.Document, &doc)
	out := Outcome{Phase: doc.Metadata.Phase}
	if doc.Error != nil {
		out.Code, out.Message = doc.Error.Code, doc.Error.Message
	}
	return out
}
