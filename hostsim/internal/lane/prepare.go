package lane

import (
	"encoding/json"
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/request"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// decodeResource decodes a resourceRequest (validate, prepare).
func (c *call) decodeResource() (*request.Request, *wire.Error) {
	var d request.ResourceDoc
	if err := request.DecodeBody(c.body, &d, c.fs); err != nil {
		return nil, err
	}
	return request.ParseResource(d.APIVersion, d.Kind, d.Form, d.Metadata, d.Spec)
}

// validate answers POST {api}/resources/validate (docs/protocol.md#prepare).
func validate(c *call) *wire.Error {
	in, err := c.decodeResource()
	if err != nil {
		return err
	}
	f, err := c.s.Engine.Installed(in.Ref, c.fs)
	if err != nil {
		return err
	}
	if err := in.CheckGrammars(c.fs); err != nil {
		return err
	}
	_, ds, gerr := c.s.Engine.GateDiagnostics(f, in.Spec, c.fs)
	if gerr != nil {
		return decide.Internal(gerr)
	}
	if ds == nil {
		ds = []decide.Diagnostic{}
	}
	valid := len(ds) == 0
	if c.fs.On(fault.ValidateInvert) {
		valid = !valid
	}
	c.send(http.StatusOK, marshal(map[string]any{"valid": valid, "diagnostics": ds}), "")
	return nil
}

// prepare answers POST {api}/resources/prepare: the spec gate, prepare's own
// target resolution, then a prepareDigest minted (or refreshed) for the tenant.
func prepare(c *call) *wire.Error {
	pre, perr := request.ParsePreconditions(c.r.Header)
	if perr != nil {
		return perr
	}
	in, err := c.decodeResource()
	if err != nil {
		return err
	}
	f, err := c.s.Engine.Installed(in.Ref, c.fs)
	if err != nil {
		return err
	}
	if err := in.CheckGrammars(c.fs); err != nil {
		return err
	}
	g, err := c.s.Engine.GateOrRefuse(f, in.Spec, c.fs)
	if err != nil {
		return err
	}
	c.fs.Scope(in.Ref.Kind, in.Name)
	var digest string
	werr := c.write(func(q store.Q) error {
		var e *wire.Error
		digest, e = c.s.Engine.Prepare(q, c.who.Tenant, in, g, pre.Fence, c.fs)
		return errOrNil(e)
	})
	if werr != nil {
		return asRefusal(werr)
	}
	c.send(http.StatusOK, marshal(preparedAnswer(in, echoedSpec(c, f, g), digest, g.Digest)), "")
	return nil
}

// prepared is prepare's answer; members are in the order a map would
// marshal them, so the bytes are those of the map it replaced.
type prepared struct {
	Resource struct {
		APIVersion string `json:"apiVersion"`
		Form       struct {
			FormRef       wire.FormRef `json:"formRef"`
			PackageDigest *string      `json:"packageDigest,omitempty"`
		} `json:"form"`
		Kind     string `json:"kind"`
		Metadata struct {
			Name  string `json:"name"`
			Space string `json:"space"`
		} `json:"metadata"`
		Spec json.RawMessage `json:"spec"`
	} `json:"resource"`
	Review struct {
		PrepareDigest string `json:"prepareDigest"`
		SpecDigest    string `json:"specDigest"`
	} `json:"review"`
}

func preparedAnswer(in *request.Request, spec json.RawMessage, digest, specDigest string) *prepared {
	var p prepared
	r := &p.Resource
	r.APIVersion, r.Kind, r.Spec = in.APIVersion, in.Kind, spec
	r.Form.FormRef, r.Form.PackageDigest = in.Ref, in.PackageDigest
	r.Metadata.Name, r.Metadata.Space = in.Name, in.Space
	p.Review.PrepareDigest, p.Review.SpecDigest = digest, specDigest
	return &p
}

// echoedSpec is the spec prepare echoes: the materialized spec.
func echoedSpec(c *call, f *catalog.Form, g *decide.Gated) json.RawMessage {
	if c.fs.On(fault.PrepareNoMaterialize) {
		return bareSpec(f, g)
	}
	return g.JCS
}

// bareSpec is the spec without the members its defaults supply (fault
// prepare.no-materialize).
func bareSpec(f *catalog.Form, g *decide.Gated) json.RawMessage {
	bare := map[string]any{}
	for k, v := range g.Spec {
		bare[k] = v
	}
	for k := range g.Spec {
		v := bare[k]
		delete(bare, k)
		if b, err := wire.CanonicalValue(f.Materialize(bare)); err != nil || string(b) != string(g.JCS) {
			bare[k] = v // not supplied by a default
		}
	}
	return marshal(bare)
}
