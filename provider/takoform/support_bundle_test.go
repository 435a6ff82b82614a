package takoform

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// bundleOf is a WorkerBundle configuration of one module file per size: index.js (the
// main module) first, then lib1.js, lib2.js, ...
func bundleOf(t *testing.T, h *harness, sizes ...int) values {
	t.Helper()
	ot := entryObjectType(h.kind("takoform_worker_bundle"))
	dir := t.TempDir()
	var mods []attr.Value
	for i, n := range sizes {
		name := "index.js"
		if i > 0 {
			name = "lib" + string(rune('0'+i)) + ".js"
		}
		file := filepath.Join(dir, name)
		body := make([]byte, n)
		for j := range body {
			body[j] = ' '
		}
		if err := os.WriteFile(file, body, 0o644); err != nil {
			t.Fatal(err)
		}
		mods = append(mods, types.ObjectValueMust(ot.AttrTypes, map[string]attr.Value{"name": s(name),
			"content_type": s("application/javascript+module"), "content_file": s(file),
			"size": types.Int64Null(), "digest": types.StringNull()}))
	}
	return values{aRevisionOwner: s("api"), aMainModule: s("index.js"), aModules: types.ListValueMust(ot, mods)}
}

// TestSupportBundleLimitIsTheSumOfItsModules: tight-limits accepts bundles of at most
// 1048576 bytes: a bundle of exactly that size plans, and two modules that are each
// under the limit but together over it are refused at plan, nothing uploaded.
func TestSupportBundleLimitIsTheSumOfItsModules(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: "tight-limits"})
	mustNoError(t, "a bundle at the limit", h.plan("takoform_worker_bundle", bundleOf(t, h, 1048576), nil).diags)
	pr := h.plan("takoform_worker_bundle", bundleOf(t, h, 600000, 600000), nil)
	d := diagWith(pr.diags, "is larger than the host accepts", "The modules add up to 1200000 bytes; maximumBundleBytes = 1048576.",
		codeHostLimitExceeded, "Pointer: /spec/manifestDigest")
	if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError {
		t.Fatalf("want the bundle refusal for the sum of two modules:\n%s", dump(pr.diags))
	}
	if c := capCounters(t, h); c.uploads != 0 || c.mutations != 0 {
		t.Errorf("plan uploaded %d / mutated %d", c.uploads, c.mutations)
	}
}
