package takoform

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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

// TestSupportBundleFileCountIsRefusedAtPlan: a host whose profile publishes
// maximumBundleFiles refuses, at plan, a bundle with more entries than that, naming the
// limit, its value and the count; a bundle at the limit plans. Both manifest shapes
// count their entries: files of a StaticAssetBundle, modules of a WorkerBundle.
func TestSupportBundleFileCountIsRefusedAtPlan(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"few-files","extends":"full",
		"limits":{"StaticAssetBundle":{"maximumBundleFiles":2},"WorkerBundle":{"maximumBundleFiles":1}}}`)})
	mustNoError(t, "two files", h.plan(assetsType, filesConfig(t, h, assetsType, indexHTML, appCSS), nil).diags)
	pr := h.plan(assetsType, filesConfig(t, h, assetsType, indexHTML, appCSS, localFile{"robots.txt", "text/plain", "x"}), nil)
	d := diagWith(pr.diags, "Bundle for StaticAssetBundle", "has more files than the host accepts",
		"The bundle has 3 files; maximumBundleFiles = 2. Nothing was uploaded.", codeHostLimitExceeded, "Pointer: /spec/manifestDigest")
	if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError || d.Attribute == nil || d.Attribute.String() != "AttributeName(\"files\")" {
		t.Fatalf("want the file count refused at files:\n%s", dump(pr.diags))
	}
	mustNoError(t, "one module", h.plan("takoform_worker_bundle", bundleOf(t, h, 10), nil).diags)
	pr = h.plan("takoform_worker_bundle", bundleOf(t, h, 10, 10), nil)
	if diagWith(pr.diags, "has more modules than the host accepts", "The bundle has 2 modules; maximumBundleFiles = 1.") == nil {
		t.Fatalf("want the module count refused:\n%s", dump(pr.diags))
	}
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
	want := fmt.Sprintf("The files add up to %d bytes; maximumBundleBytes = %d. Nothing was uploaded.", limit+len(more.body), limit)
	if diagWith(pr.diags, "Bundle for SQLiteMigrationSet", "is larger than the host accepts", want, codeHostLimitExceeded) == nil {
		t.Fatalf("want the migration bytes refused (%s):\n%s", want, dump(pr.diags))
	}
	if c := capCounters(t, h); c.uploads != 0 || c.mutations != 0 {
		t.Errorf("plan uploaded %d / mutated %d", c.uploads, c.mutations)
	}
}
