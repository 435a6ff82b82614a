package takoform

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
	wantDiags(t, pr.diags, errorDiag("Bundle for WorkerBundle bundle-28e90c33d34c-14c2529eb449 is larger than the host accepts",
		"The modules add up to 1200000 bytes; maximumBundleBytes = 1048576. Nothing was uploaded. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_worker_bundle (dev/bundle-28e90c33d34c-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerBundle@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/manifestDigest",
		"Code: takoform.provider/host-limit-exceeded",
		"Retryable: no",
		"",
		"Shrink the bundle or use another host.").at("modules"))
	if c := capCounters(t, h); c.uploads != 0 || c.mutations != 0 {
		t.Errorf("plan uploaded %d / mutated %d", c.uploads, c.mutations)
	}
}

// TestSupportBundleFileCountIsRefusedAtPlan: a host whose profile publishes
// maximumBundleFiles refuses, at plan, a bundle with more entries than that, naming the
// limit, its value and the count; a bundle at the limit plans. Both manifest shapes
// count their entries: files of a StaticAssetBundle, modules of a WorkerBundle.
func TestSupportBundleFileCountIsRefusedAtPlan(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"few-files","extends":"full",
		"limits":{"StaticAssetBundle":{"maximumBundleFiles":2},"WorkerBundle":{"maximumBundleFiles":1}}}`)})
	mustNoError(t, "two files", h.plan(assetsType, filesConfig(t, h, assetsType, indexHTML, appCSS), nil).diags)
	pr := h.plan(assetsType, filesConfig(t, h, assetsType, indexHTML, appCSS, localFile{"robots.txt", "text/plain", "x"}), nil)
	wantDiags(t, pr.diags, errorDiag("Bundle for StaticAssetBundle bundle-f1b046bfd400-fbae041b02c4 has more files than the host accepts",
		"The bundle has 3 files; maximumBundleFiles = 2. Nothing was uploaded. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_static_asset_bundle (dev/bundle-f1b046bfd400-fbae041b02c4)",
		"Form: edge.forms.takokit.dev/v1beta1 StaticAssetBundle@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/manifestDigest",
		"Code: takoform.provider/host-limit-exceeded",
		"Retryable: no",
		"",
		"Use at most 2 files in the bundle, or another host.").at("files"))
	mustNoError(t, "one module", h.plan("takoform_worker_bundle", bundleOf(t, h, 10), nil).diags)
	pr = h.plan("takoform_worker_bundle", bundleOf(t, h, 10, 10), nil)
	wantDiags(t, pr.diags, errorDiag("Bundle for WorkerBundle bundle-51efdbd3f294-14c2529eb449 has more modules than the host accepts",
		"The bundle has 2 modules; maximumBundleFiles = 1. Nothing was uploaded. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_worker_bundle (dev/bundle-51efdbd3f294-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerBundle@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/manifestDigest",
		"Code: takoform.provider/host-limit-exceeded",
		"Retryable: no",
		"",
		"Use at most 1 module in the bundle, or another host.").at("modules"))
	if c := capCounters(t, h); c.uploads != 0 || c.mutations != 0 {
		t.Errorf("plan uploaded %d / mutated %d", c.uploads, c.mutations)
	}
}

// TestSupportBundleBytesCountEveryFileKind: maximumBundleBytes holds the files of a
// SQLiteMigrationSet to the sum of their sizes, as it holds a WorkerBundle's modules.
func TestSupportBundleBytesCountEveryFileKind(t *testing.T) {
	limit := len(initSQL.body) + len(indexSQL.body)
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"small-migrations","extends":"full",
		"limits":{"SQLiteMigrationSet":{"maximumBundleBytes":`+strconv.Itoa(limit)+`}}}`)})
	mustNoError(t, "at the limit", h.plan(migrationsType, filesConfig(t, h, migrationsType, initSQL, indexSQL), nil).diags)
	more := localFile{"0003_more.sql", "application/sql", "SELECT 1;"}
	pr := h.plan(migrationsType, filesConfig(t, h, migrationsType, initSQL, indexSQL, more), nil)
	if limit+len(more.body) != 104 || limit != 95 {
		t.Fatalf("the files changed: %d bytes against a limit of %d", limit+len(more.body), limit)
	}
	wantDiags(t, pr.diags, errorDiag("Bundle for SQLiteMigrationSet set-4be0b565856d-fbae041b02c4 is larger than the host accepts",
		"The files add up to 104 bytes; maximumBundleBytes = 95. Nothing was uploaded. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_sqlite_migration_set (dev/set-4be0b565856d-fbae041b02c4)",
		"Form: edge.forms.takokit.dev/v1beta1 SQLiteMigrationSet@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/manifestDigest",
		"Code: takoform.provider/host-limit-exceeded",
		"Retryable: no",
		"",
		"Shrink the bundle or use another host.").at("files"))
	if c := capCounters(t, h); c.uploads != 0 || c.mutations != 0 {
		t.Errorf("plan uploaded %d / mutated %d", c.uploads, c.mutations)
	}
}
