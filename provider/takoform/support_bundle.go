package takoform

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/provider/internal/client"
)

// bundleLimits holds a locally authored bundle to the host's published bundle limits
// (docs/provider-design.md#plan-time-support): the number of entries against
// maximumBundleFiles and their summed sizes against maximumBundleBytes, before anything
// is uploaded. The entries' count is known once the list is; their sizes once the
// files are (planBundle reads them), and while they are not, nothing is summed, so
// nothing is refused. A limit the host does not state is no statement.
func (c *supportCheck) bundleLimits(prof *client.SupportProfile) {
	a := c.r.kind.model.bundle
	if a == nil {
		return
	}
	l, ok := c.plan[a.list].(types.List)
	if !ok || l.IsNull() || l.IsUnknown() {
		return // authored by manifest_digest alone, or not known yet
	}
	at := path.Root(a.list)
	subject := fmt.Sprintf("%s %s", c.form.Ref.Kind, c.plan.str(aName))
	pointer := "/spec/" + c.form.Fields[0].Wire
	n := int64(len(l.Elements()))
	if max, err := prof.Limits["maximumBundleFiles"].Int64(); err == nil && n > max {
		c.refuse(fmt.Sprintf("Bundle for %s has more %s than the host accepts", subject, plural(a.what())), codeHostLimitExceeded, pointer,
			fmt.Sprintf("The bundle has %s; maximumBundleFiles = %d. Nothing was uploaded.", count(n, a.what()), max),
			atMost(max, a.what(), "the bundle"), &at)
	}
	var total int64
	for _, e := range l.Elements() {
		o, ok := e.(types.Object)
		if !ok || o.IsUnknown() {
			return
		}
		sz, ok := o.Attributes()["size"].(types.Int64)
		if !ok || sz.IsNull() || sz.IsUnknown() {
			return
		}
		total += sz.ValueInt64()
	}
	if max, err := prof.Limits["maximumBundleBytes"].Int64(); err == nil && total > max {
		c.refuse(fmt.Sprintf("Bundle for %s is larger than the host accepts", subject), codeHostLimitExceeded, pointer,
			fmt.Sprintf("The %ss add up to %d bytes; maximumBundleBytes = %d. Nothing was uploaded.", a.what(), total, max),
			"Shrink the bundle or use another host.", &at)
	}
}
