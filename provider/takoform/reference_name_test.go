package takoform

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestReferenceToAnInvalidNameIsRefusedAtItsAttribute: a reference attribute takes a
// resource name; one that no resource can have is refused when the configuration is
// validated, at that attribute, before any plan or request.
func TestReferenceToAnInvalidNameIsRefusedAtItsAttribute(t *testing.T) {
	t.Parallel()
	h := gadgetHarness(t, hostsim.Config{})
	pr := h.plan(gadgetType, values{aName: s("g"), "holder": s("Not_A_Name"), "size": i64(3)}, nil)
	wantDiags(t, pr.diags, errorDiag("Value does not match the required pattern",
		`"Not_A_Name" must match ^[a-z][a-z0-9-]{0,62}$. A name is 1 to 63 lower-case letters, digits and hyphens, starting with a letter.`).at("holder"))
}
