package takoform

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

// revisionName derives <prefix>-<c12>-<o12> (docs/provider-design.md#revision-naming): prefix is the last
// segment of the kind slug, c12 the content digest (manifest digest of an
// artifact-addressed Form, else the spec digest), o12 the SHA-256 of the owner.
// It returns an unknown value while the content is not known.
func (m *kindModel) revisionName(form *model.Form, plan values, owner string) attr.Value {
	var content string
	if artifactAddressed(form) {
		v, ok := plan[form.Fields[0].Attr].(types.String)
		if !ok || v.IsUnknown() || v.IsNull() {
			return types.StringUnknown()
		}
		content = v.ValueString()
	} else {
		for i := range form.Fields {
			if v := plan[form.Fields[i].Attr]; v != nil && !wholeKnown(v) {
				return types.StringUnknown()
			}
		}
		spec, err := encodeSpec(form, plan)
		if err != nil {
			return types.StringUnknown()
		}
		d, err := wire.DigestValue(spec)
		if err != nil {
			return types.StringUnknown()
		}
		content = d
	}
	c12 := strings.TrimPrefix(content, "sha256:")
	if len(c12) < 12 {
		return types.StringUnknown()
	}
	o := sha256.Sum256([]byte(owner))
	slug := m.kind.Slug
	prefix := slug[strings.LastIndex(slug, "-")+1:]
	return types.StringValue(prefix + "-" + c12[:12] + "-" + hex.EncodeToString(o[:])[:12])
}

// planRevisionName sets the derived name when revision_owner configures it.
func (m *kindModel) planRevisionName(form *model.Form, plan, config values) {
	if !m.revision || config.known(aName) || !config.known(aRevisionOwner) {
		return
	}
	plan[aName] = m.revisionName(form, plan, config.str(aRevisionOwner))
}
