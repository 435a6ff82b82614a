package model

import (
	"strings"
	"unicode"
)

// Snake turns a lowerCamelCase wire name into its HCL attribute name (docs/catalog-rules.md#naming):
// a boundary lies between a lowercase letter or digit and the uppercase letter
// after it, and between two uppercase letters when the second is followed by a
// lowercase letter. The json-map suffix "_json" is added by the field classifier, not
// here.
func Snake(wire string) string {
	rs := []rune(wire)
	var b strings.Builder
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// TypeName is the provider resource type of a kind slug (docs/catalog-rules.md#naming).
func TypeName(slug string) string {
	return "takoform_" + strings.ReplaceAll(slug, "-", "_")
}

// Reserved attribute groups (docs/catalog-rules.md#loader-rules).
const (
	ReservedEveryResource = "every resource"
	ReservedUpdate        = "Forms that declare update"
	ReservedRevision      = "revision role"
	ReservedArtifact      = "artifact-addressed Forms"
	ReservedProvider      = "held for the provider"
	ReservedMetaArgument  = "OpenTofu meta-arguments"
)

var reservedTable = []struct {
	group string
	names []string
}{
	{ReservedEveryResource, []string{"name", "space", "uid", "generation", "revision", "conditions", "ready",
		"outputs_json", "form_api_version", "form_kind", "form_definition_version", "form_schema_digest",
		"form_package_digest", "form_transition", "pending_operation_id", "relation_drift_reason",
		"create_timeout", "delete_timeout"}},
	{ReservedUpdate, []string{"update_timeout"}},
	{ReservedRevision, []string{"revision_owner"}},
	{ReservedArtifact, []string{"main_module", "modules", "files"}},
	{ReservedProvider, []string{"id", "timeouts"}},
	{ReservedMetaArgument, []string{"count", "for_each", "depends_on", "provider", "lifecycle", "provisioner", "connection"}},
}

// ReservedAttributes returns every reserved attribute name mapped to its group (a
// fresh map; the provider test compares it with the envelope it builds).
func ReservedAttributes() map[string]string {
	out := map[string]string{}
	for _, g := range reservedTable {
		for _, n := range g.names {
			out[n] = g.group
		}
	}
	return out
}
