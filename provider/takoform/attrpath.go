package takoform

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// inEntry puts the attribute path before a detail when the path reaches into an
// attribute of an entry of a list (versions[1].weight): OpenTofu and Terraform
// highlight such a path at the resource block, not at the entry, so without it a
// user with several entries cannot tell which one is meant (docs/provider-design.md,
// "Diagnostics"). Any other path is highlighted where it is written; a summary that
// names the path already needs it not again.
func inEntry(p path.Path, summary, detail string) string {
	if strings.Contains(summary, p.String()) {
		return detail
	}
	steps := p.Steps()
	for i, s := range steps {
		if _, ok := s.(path.PathStepElementKeyInt); ok && i+1 < len(steps) {
			return p.String() + ": " + detail
		}
	}
	return detail
}

// attrErr adds an attribute error whose detail names an entry's attribute (inEntry).
func attrErr(d *diag.Diagnostics, p path.Path, summary, detail string) {
	d.AddAttributeError(p, summary, inEntry(p, summary, detail))
}
