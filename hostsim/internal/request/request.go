package request

import (
	"bytes"
	"encoding/json"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// The request documents of the resource routes (docs/protocol.md#representation)
// and the checks every one of them shares, before anything is looked up.

// FormDoc is `form` in a request.
type FormDoc struct {
	FormRef       *wire.FormRef `json:"formRef,required"`
	PackageDigest *string       `json:"packageDigest"`
}

// MetadataDoc is `metadata` in a request; uid/generation/revision are ignored
// except generation as the import fence.
type MetadataDoc struct {
	Name       *string `json:"name,required"`
	Space      *string `json:"space,required"`
	UID        *string `json:"uid"`
	Generation *string `json:"generation"`
	Revision   *string `json:"revision"`
}

// ResourceDoc is resourceRequest; apply and import add their members.
type ResourceDoc struct {
	APIVersion string          `json:"apiVersion,required"`
	Kind       string          `json:"kind,required"`
	Form       FormDoc         `json:"form,required"`
	Metadata   MetadataDoc     `json:"metadata,required"`
	Spec       json.RawMessage `json:"spec,required"`
}

type ReviewDoc struct {
	PrepareDigest string `json:"prepareDigest,required"`
}

type ApplyDoc struct {
	APIVersion         string          `json:"apiVersion,required"`
	Kind               string          `json:"kind,required"`
	Form               FormDoc         `json:"form,required"`
	Metadata           MetadataDoc     `json:"metadata,required"`
	Spec               json.RawMessage `json:"spec,required"`
	Review             *ReviewDoc      `json:"review,required"`
	ExpectedUID        *string         `json:"expectedUid"`
	ExpectedGeneration *string         `json:"expectedGeneration"`
}

type ImportDoc struct {
	APIVersion string          `json:"apiVersion,required"`
	Kind       string          `json:"kind,required"`
	Form       FormDoc         `json:"form,required"`
	Metadata   MetadataDoc     `json:"metadata,required"`
	Spec       json.RawMessage `json:"spec,required"`
	NativeID   *string         `json:"nativeId,required"`
}

// Request is the part every resource request shares, after decoding.
type Request struct {
	APIVersion, Kind string
	Ref              wire.FormRef
	PackageDigest    *string
	Name, Space      string
	Generation       *string // metadata.generation, the import fence
	Spec             map[string]any
}

// DecodeBody runs the I-JSON gate and the closed decode (docs/protocol.md#json).
func DecodeBody(body []byte, v any, fs *fault.Set) *wire.Error {
	if len(bytes.TrimSpace(body)) == 0 {
		return decide.Invalid("the request body is empty; send a JSON object")
	}
	if fs.On(fault.JSONUnknownMembers) {
		if err := json.Unmarshal(body, v); err != nil {
			return decide.Invalid("the request body is not acceptable JSON: %v", err)
		}
		return nil
	}
	if err := wire.DecodeStrict(body, v); err != nil {
		if wire.CheckIJSON(body) == nil {
			return decide.Invalid("the request body is not acceptable JSON: %v", err)
		}
		// json.duplicates forgives duplicate member names only: a body with any
		// other I-JSON problem (a lone surrogate the re-encoding would replace) is
		// refused as ever.
		if !fs.Armed(fault.JSONDuplicates) {
			return decide.Invalid("the request body is not acceptable JSON: %v", err)
		}
		if other := wire.CheckIJSONButDuplicates(body); other != nil {
			return decide.Invalid("the request body is not acceptable JSON: %v", other)
		}
		if !fs.On(fault.JSONDuplicates) { // spent since Armed by a request beside this one
			return decide.Invalid("the request body is not acceptable JSON: %v", err)
		}
		if err := wire.DecodeStrict(lastMemberWins(body), v); err != nil {
			return decide.Invalid("the request body is not acceptable JSON: %v", err)
		}
	}
	return nil
}

// ParseResource checks the member grammars every resource request shares.
func ParseResource(apiVersion, kind string, f FormDoc, m MetadataDoc, spec json.RawMessage) (*Request, *wire.Error) {
	if f.FormRef == nil {
		return nil, decide.Invalid("/form/formRef is null; send the exact FormRef")
	}
	if err := f.FormRef.Validate(); err != nil {
		return nil, decide.Invalid("/form/formRef: %v", err)
	}
	if m.Name == nil || m.Space == nil {
		return nil, decide.Invalid("/metadata needs name and space")
	}
	if m.UID != nil && !wire.ValidUID(*m.UID) {
		return nil, decide.Invalid("/metadata/uid %q is not a uid", *m.UID)
	}
	for _, g := range []struct {
		v    *string
		name string
	}{{m.Generation, "generation"}, {m.Revision, "revision"}} {
		if g.v != nil {
			if !wire.ValidDecimal(*g.v) {
				return nil, decide.Invalid("/metadata/%s %q is not a canonical decimal 1..9223372036854775807", g.name, *g.v)
			}
		}
	}
	t := bytes.TrimSpace(spec)
	if len(t) == 0 || t[0] != '{' {
		return nil, decide.Invalid("/spec must be a JSON object ({} when empty)")
	}
	obj := map[string]any{}
	if !emptyObject(t) {
		if err := wire.DecodeNumbers(t, &obj); err != nil {
			return nil, decide.Invalid("/spec: %v", err)
		}
	}
	return &Request{APIVersion: apiVersion, Kind: kind, Ref: *f.FormRef, PackageDigest: f.PackageDigest,
		Name: *m.Name, Space: *m.Space, Generation: m.Generation, Spec: obj}, nil
}

// emptyObject: b is `{` and `}` with only white space between (an empty spec
// needs no decoder).
func emptyObject(b []byte) bool {
	return len(bytes.TrimSpace(b[1:])) == 1 && b[len(b)-1] == '}'
}

// lastMemberWins re-encodes body through a plain decode, which keeps the last
// of duplicate members (fault json.duplicates); undecodable bytes stay as they are.
func lastMemberWins(body []byte) []byte {
	var v any
	if wire.DecodeNumbers(body, &v) != nil {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

// CheckGrammars is step 9's checks once the FormRef resolved (docs/protocol.md#order).
func (in *Request) CheckGrammars(fs *fault.Set) *wire.Error {
	if in.APIVersion != in.Ref.APIVersion || in.Kind != in.Ref.Kind {
		return decide.Invalid("apiVersion %q and kind %q must equal /form/formRef (%s %s)", in.APIVersion, in.Kind,
			in.Ref.APIVersion, in.Ref.Kind)
	}
	if !wire.ValidResourceName(in.Name) {
		return decide.Invalid("/metadata/name %q must match ^[a-z][a-z0-9-]{0,62}$", in.Name)
	}
	if err := wire.ValidateSpaceID(in.Space); err != nil {
		if !fs.On(fault.SpaceLenient) {
			return decide.Invalid("/metadata/space: %v", err)
		}
	}
	if in.PackageDigest != nil && !wire.ValidDigest(*in.PackageDigest) {
		return decide.Invalid("/form/packageDigest %q must be sha256: followed by 64 lowercase hex digits", *in.PackageDigest)
	}
	return nil
}
