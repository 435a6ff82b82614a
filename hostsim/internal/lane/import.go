package lane

import "strings"

// importResource answers POST …/{name}/import (host-api.md §16).
func (c *call) importResource() *apiError {
	pre, err := c.readPreconditions()
	if err != nil {
		return err
	}
	var d importDoc
	if err := c.decodeBody(&d); err != nil {
		return err
	}
	in, err := envelopeOf(d.APIVersion, d.Kind, d.Form, d.Metadata, d.Spec)
	if err != nil {
		return err
	}
	nid := ""
	if d.NativeID != nil {
		nid = *d.NativeID
	}
	if len(nid) < 1 || len([]rune(nid)) > 4096 || strings.TrimSpace(nid) != nid {
		return invalid("/nativeId must be 1..4096 characters with no leading or trailing whitespace")
	}
	var bodyFence int64
	if in.generation != nil {
		bodyFence, _ = parseCanonical(*in.generation)
	}
	m, early := c.stateless(in, pre, bodyFence, "/metadata/generation")
	if m != nil {
		m.Action, m.NativeID = "import", nid
	}
	return c.mutate(in.space, m, early)
}
