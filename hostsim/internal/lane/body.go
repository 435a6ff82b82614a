package lane

import (
	"bytes"
	"encoding/json"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// formDoc is `form` in a request.
type formDoc struct {
	FormRef       *wire.FormRef `json:"formRef,required"`
	PackageDigest *string       `json:"packageDigest"`
}

// metadataDoc is `metadata` in a request; uid/generation/revision are ignored
// except generation as the import fence.
type metadataDoc struct {
	Name       *string `json:"name,required"`
	Space      *string `json:"space,required"`
	UID        *string `json:"uid"`
	Generation *string `json:"generation"`
	Revision   *string `json:"revision"`
}

// resourceDoc is resourceRequest; apply and import add their members.
type resourceDoc struct {
	APIVersion string          `json:"apiVersion,required"`
	Kind       string          `json:"kind,required"`
	Form       formDoc         `json:"form,required"`
	Metadata   metadataDoc     `json:"metadata,required"`
	Spec       json.RawMessage `json:"spec,required"`
}

type reviewDoc struct {
	PrepareDigest string `json:"prepareDigest,required"`
}

type applyDoc struct {
	APIVersion         string          `json:"apiVersion,required"`
	Kind               string          `json:"kind,required"`
	Form               formDoc         `json:"form,required"`
	Metadata           metadataDoc     `json:"metadata,required"`
	Spec               json.RawMessage `json:"spec,required"`
	Review             *reviewDoc      `json:"review,required"`
	ExpectedUID        *string         `json:"expectedUid"`
	ExpectedGeneration *string         `json:"expectedGeneration"`
}

type importDoc struct {
	APIVersion string          `json:"apiVersion,required"`
	Kind       string          `json:"kind,required"`
	Form       formDoc         `json:"form,required"`
	Metadata   metadataDoc     `json:"metadata,required"`
	Spec       json.RawMessage `json:"spec,required"`
	NativeID   *string         `json:"nativeId,required"`
}

// request is the part every resource request shares, after decoding.
type request struct {
	apiVersion, kind string
	ref              wire.FormRef
	packageDigest    *string
	name, space      string
	generation       *string
	spec             map[string]any
}

// decodeBody runs the I-JSON gate and the closed decode (docs/protocol.md#json).
func (c *call) decodeBody(v any) *wire.Error {
	body := c.body
	if len(bytes.TrimSpace(body)) == 0 {
		return core.Invalid("the request body is empty; send a JSON object")
	}
	if c.fs.On(fault.JSONUnknownMembers) {
		if err := json.Unmarshal(body, v); err != nil {
			return core.Invalid("the request body is not acceptable JSON: %v", err)
		}
		return nil
	}
	if err := wire.DecodeStrict(body, v); err != nil {
		if wire.CheckIJSON(body) == nil {
			return core.Invalid("the request body is not acceptable JSON: %v", err)
		}
		if !c.fs.On(fault.JSONDuplicates) {
			return core.Invalid("the request body is not acceptable JSON: %v", err)
		}
		if err := wire.DecodeStrict(lastMemberWins(body), v); err != nil {
			return core.Invalid("the request body is not acceptable JSON: %v", err)
		}
	}
	return nil
}

// envelope checks the member grammars every resource request shares.
func envelopeOf(apiVersion, kind string, f formDoc, m metadataDoc, spec json.RawMessage) (*request, *wire.Error) {
	if f.FormRef == nil {
		return nil, core.Invalid("/form/formRef is null; send the exact FormRef")
	}
	if err := f.FormRef.Validate(); err != nil {
		return nil, core.Invalid("/form/formRef: %v", err)
	}
	if m.Name == nil || m.Space == nil {
		return nil, core.Invalid("/metadata needs name and space")
	}
	if m.UID != nil && !wire.ValidUID(*m.UID) {
		return nil, core.Invalid("/metadata/uid %q is not a uid", *m.UID)
	}
	for _, g := range []struct {
		v    *string
		name string
	}{{m.Generation, "generation"}, {m.Revision, "revision"}} {
		if g.v != nil {
			if !wire.ValidDecimal(*g.v) {
				return nil, core.Invalid("/metadata/%s %q is not a canonical decimal 1..9223372036854775807", g.name, *g.v)
			}
		}
	}
	t := bytes.TrimSpace(spec)
	if len(t) == 0 || t[0] != '{' {
		return nil, core.Invalid("/spec must be a JSON object ({} when empty)")
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		return nil, core.Invalid("/spec: %v", err)
	}
	return &request{apiVersion: apiVersion, kind: kind, ref: *f.FormRef, packageDigest: f.PackageDigest,
		name: *m.Name, space: *m.Space, generation: m.Generation, spec: obj}, nil
}

// lastMemberWins re-encodes body through a plain decode, which keeps the last
// of duplicate members (fault json.duplicates); undecodable bytes stay as they are.
func lastMemberWins(body []byte) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) != nil || dec.More() {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

// grammars are step 9's checks after the FormRef resolved (docs/protocol.md#order).
func (c *call) grammars(in *request) *wire.Error {
	if in.apiVersion != in.ref.APIVersion || in.kind != in.ref.Kind {
		return core.Invalid("apiVersion %q and kind %q must equal /form/formRef (%s %s)", in.apiVersion, in.kind,
			in.ref.APIVersion, in.ref.Kind)
	}
	if !wire.ValidResourceName(in.name) {
		return core.Invalid("/metadata/name %q must match ^[a-z][a-z0-9-]{0,62}$", in.name)
	}
	if err := wire.ValidateSpaceID(in.space); err != nil {
		if !c.fs.On(fault.SpaceLenient) {
			return core.Invalid("/metadata/space: %v", err)
		}
	}
	if in.packageDigest != nil && !wire.ValidDigest(*in.packageDigest) {
		return core.Invalid("/form/packageDigest %q must be sha256: followed by 64 lowercase hex digits", *in.packageDigest)
	}
	return nil
}
