package lane

import (
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// decodeResource decodes a resourceRequest (validate, prepare).
func (c *call) decodeResource() (*core, *apiError) {
	var d resourceDoc
	if err := c.decodeBody(&d); err != nil {
		return nil, err
	}
	return envelopeOf(d.APIVersion, d.Kind, d.Form, d.Metadata, d.Spec)
}

// validate answers POST {api}/resources/validate (host-api.md §10.2).
func (c *call) validate() *apiError {
	in, err := c.decodeResource()
	if err != nil {
		return err
	}
	f, err := c.installed(in.ref)
	if err != nil {
		return err
	}
	if err := c.grammars(in); err != nil {
		return err
	}
	_, ds, gerr := specGate(f, in.spec)
	if gerr != nil {
		return internal(gerr)
	}
	if ds == nil {
		ds = []diagnostic{}
	}
	valid := len(ds) == 0
	if c.faultOn("validate.invert") {
		valid = !valid
	}
	c.send(http.StatusOK, marshal(map[string]any{"valid": valid, "diagnostics": ds}), "")
	return nil
}

// prepareBinding is the object a prepareDigest is minted over (host-api.md §10.3).
func prepareBinding(specDigest string, ref wire.FormRef, name, tenant, space, uid, generation string) string {
	d, _ := wire.DigestValue(map[string]string{
		"plan": "takokit-hostsim/v1", "specDigest": specDigest, "group": ref.APIVersion, "kind": ref.Kind,
		"definitionVersion": ref.DefinitionVersion, "schemaDigest": ref.SchemaDigest, "name": name,
		"tenant": tenant, "space": space, "uid": uid, "generation": generation,
	})
	return d
}

// prepare answers POST {api}/resources/prepare.
func (c *call) prepare() *apiError {
	pre, perr := c.readPreconditions()
	if perr != nil {
		return perr
	}
	in, err := c.decodeResource()
	if err != nil {
		return err
	}
	f, err := c.installed(in.ref)
	if err != nil {
		return err
	}
	if err := c.grammars(in); err != nil {
		return err
	}
	g, err := gateOrRefuse(f, in.spec)
	if err != nil {
		return err
	}
	c.kind, c.name = in.ref.Kind, in.name
	var digest string
	werr := c.s.Store.Write(c.ctx, func(tx store.Q) error {
		cur, serr := store.GetResource(tx, c.who.Tenant, in.space, in.ref.APIVersion, in.ref.Kind, in.name)
		if serr != nil {
			return internal(serr)
		}
		uid, gen := "", "0"
		if cur != nil && ref(cur) == in.ref {
			if pre.fence == 0 && !c.faultOn("prepare.no-fence") {
				return invalid("%s %q exists in space %q at generation %d; prepare of an existing resource requires Takoform-Expected-Generation",
					in.ref.Kind, in.name, in.space, cur.Generation)
			}
			if pre.fence != 0 && pre.fence != cur.Generation && !c.faultOn("fence.ignore") {
				return fail(wire.CodeGenerationConflict, "fence %d is stale: %s %q in space %q is at generation %d; read it again and re-plan",
					pre.fence, in.ref.Kind, in.name, in.space, cur.Generation)
			}
			uid, gen = cur.UID, itoa(cur.Generation)
		} else if pre.fence != 0 {
			return notFound("fence %d names no %s %q in space %q under %s; drop the fence to prepare a create",
				pre.fence, in.ref.Kind, in.name, in.space, in.ref)
		}
		tenant := c.prepareTenant(c.who.Tenant)
		digest = prepareBinding(g.digest, in.ref, in.name, tenant, in.space, uid, gen)
		return store.MintPrepare(tx, digest, tenant, c.s.Now().Unix())
	})
	if werr != nil {
		return asAPI(werr)
	}
	form := map[string]any{"formRef": in.ref}
	if in.packageDigest != nil {
		form["packageDigest"] = *in.packageDigest
	}
	out := map[string]any{
		"resource": map[string]any{"apiVersion": in.apiVersion, "kind": in.kind, "form": form,
			"metadata": map[string]string{"name": in.name, "space": in.space}, "spec": c.echoedSpec(f, g)},
		"review": map[string]string{"prepareDigest": digest, "specDigest": g.digest},
	}
	c.send(http.StatusOK, marshal(out), "")
	return nil
}

// asAPI turns an error out of a store transaction back into a refusal.
func asAPI(err error) *apiError {
	if e, ok := err.(*apiError); ok {
		return e
	}
	return internal(err)
}
