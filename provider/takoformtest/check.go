package takoformtest

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// CheckDestroy is a resource.TestCheckFunc for TestCase.CheckDestroy: it reads the
// host's own state (not OpenTofu's) and fails naming every resource the host still
// holds after the test case's destroy.
func (h *Host) CheckDestroy(*terraform.State) error {
	left, err := h.Sim.Host.State().Resources(context.Background())
	if err != nil {
		return fmt.Errorf("takoformtest: read the host's resources: %w", err)
	}
	if len(left) == 0 {
		return nil
	}
	names := make([]string, 0, len(left))
	for _, r := range left {
		names = append(names, fmt.Sprintf("%s %s/%s (uid %s)", r.Kind, r.Space, r.Name, r.UID))
	}
	return fmt.Errorf("the host still holds %d resource(s) after destroy: %s", len(left), strings.Join(names, ", "))
}
