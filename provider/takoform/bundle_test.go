package takoform

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

func bundleConfig(t *testing.T, h *harness, file string) values {
	ot := entryObjectType(h.kind("takoform_worker_bundle"))
	mod := types.ObjectValueMust(ot.AttrTypes, map[string]attr.Value{"name": s("index.js"),
		"content_type": s("application/javascript+module"), "content_file": s(file),
		"size": types.Int64Null(), "digest": types.StringNull()})
	return values{aRevisionOwner: s("api"), aMainModule: s("index.js"), aModules: types.ListValueMust(ot, []attr.Value{mod})}
}

// TestWorkerStackFromLocalFiles: bundle upload then PUT, version, deployment and an
// endpoint whose typed outputs are set; a re-plan with unchanged files is empty and
// changed bytes plan a new bundle name (replacement).
func TestWorkerStackFromLocalFiles(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	h.create(workerType, values{aName: s("api")})
	file := filepath.Join(t.TempDir(), "index.js")
	if err := os.WriteFile(file, []byte(`export default { async fetch(request) { return new Response("ok"); } };`), 0o644); err != nil {
		t.Fatal(err)
	}
	bcfg := bundleConfig(t, h, file)
	pr0 := h.plan("takoform_worker_bundle", bcfg, nil)
	mustNoError(t, "plan bundle", pr0.diags)
	b, d := h.apply("takoform_worker_bundle", bcfg, nil, pr0.planned)
	mustNoError(t, "apply bundle", d)
	if b.str("manifest_digest") == "" || b.str(aName) == "" {
		t.Fatalf("bundle: digest=%q name=%q", b.str("manifest_digest"), b.str(aName))
	}
	if c, _ := h.sim.Admin.Counters(); c.Uploads < 3 {
		t.Errorf("uploads = %d, want start, blob and commit", c.Uploads)
	}
	pr := h.plan("takoform_worker_bundle", bcfg, b)
	mustNoError(t, "replan bundle", pr.diags)
	for k, v := range b {
		if !pr.planned[k].Equal(v) {
			t.Errorf("unchanged files move %s: %v -> %v", k, v, pr.planned[k])
		}
	}
	v := h.create("takoform_worker_version", values{aRevisionOwner: s("api"), "worker": s("api"), "bundle": s(b.str(aName)),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")})})
	if !v["vars_json"].Equal(types.StringValue("{}")) || v.str(aUID) == "" {
		t.Errorf("version: vars_json=%v uid=%q", v["vars_json"], v.str(aUID))
	}
	dep := h.kind("takoform_worker_deployment")
	lt := dep.objectType.AttrTypes["versions"].(types.ListType).ElemType.(types.ObjectType)
	h.create("takoform_worker_deployment", values{aName: s("api"), "worker": s("api"), "versions": objList(t, lt,
		map[string]attr.Value{"weight": i64(10000), "worker_version": s(v.str(aName))})})
	e := h.create(endpointType, endpointConfig(nil))
	if e.str("url") == "" {
		t.Error("endpoint without url")
	}
	if err := os.WriteFile(file, []byte(`export default { async fetch() { return new Response("v2"); } };`), 0o644); err != nil {
		t.Fatal(err)
	}
	pr = h.plan("takoform_worker_bundle", bcfg, b)
	mustNoError(t, "plan changed bytes", pr.diags)
	if len(pr.replace) == 0 || pr.planned.str("manifest_digest") == b.str("manifest_digest") {
		t.Errorf("changed bytes: replace=%v digest=%q", pr.replace, pr.planned.str("manifest_digest"))
	}
}

// bundleConflict is a bundle-conflict diagnostic of the WorkerBundle Form whose
// schema digest is the n-th placeholder, with its repair.
func bundleConflict(summary, what string, n int, repair string) diagnostic {
	return errorDiag(summary, what, "",
		"Resource: takoform_worker_bundle",
		fmt.Sprintf("Form: edge.forms.takokit.dev/v1beta1 WorkerBundle@0.1.0 schema=<sha256-%d>", n),
		"Pointer: /spec/manifestDigest",
		"Code: takoform.provider/bundle-conflict",
		"Retryable: no",
		"",
		repair)
}

// anyWay is the repair of a bundle that names its files neither way, or both ways apart.
const anyWay = "Set manifest_digest to a committed manifest, or main_module and modules to local files (or both, agreeing)."

func TestBundleAuthoringModes(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	pr := h.plan("takoform_worker_bundle", values{aRevisionOwner: s("api")}, nil)
	wantDiags(t, pr.diags, bundleConflict("Set manifest_digest, or main_module and modules",
		"The bundle names neither a committed manifest nor local module files.", 1, anyWay).at("manifest_digest"))
	dir := t.TempDir()
	file := filepath.Join(dir, "index.js")
	os.WriteFile(file, []byte("export default {};"), 0o644)
	cfg := bundleConfig(t, h, file)
	configured := "sha256:" + "00000000000000000000000000000000000000000000000000000000000000aa"
	cfg["manifest_digest"] = s(configured)
	pr = h.plan("takoform_worker_bundle", cfg, nil)
	wantDiags(t, named(pr.diags, "<configured>", configured), bundleConflict("Bundle files do not match manifest_digest",
		"The local files describe manifest <sha256-1>, but manifest_digest is <configured>.", 2, anyWay).at("manifest_digest"))
	// main_module naming no module, then a module the host cannot load first
	cfg = bundleConfig(t, h, file)
	cfg[aMainModule] = s("main.js")
	pr = h.plan("takoform_worker_bundle", cfg, nil)
	wantDiags(t, pr.diags, bundleConflict("main_module names no module",
		`"main.js" is the name of no module; the modules are named "index.js".`, 1, `Set main_module to one of those names, or add a module named "main.js".`).at("main_module"))
	ot := entryObjectType(h.kind("takoform_worker_bundle"))
	sourceMap := types.ObjectValueMust(ot.AttrTypes, map[string]attr.Value{"name": s("index.js.map"),
		"content_type": s("application/source-map+json"), "content_file": s(file),
		"size": types.Int64Null(), "digest": types.StringNull()})
	cfg[aModules] = types.ListValueMust(ot, append(cfg[aModules].(types.List).Elements(), sourceMap))
	cfg[aMainModule] = s("index.js.map")
	pr = h.plan("takoform_worker_bundle", cfg, nil)
	wantDiags(t, pr.diags, bundleConflict("main_module must name a loadable module",
		`Module "index.js.map" has media type "application/source-map+json", which the host cannot load as the entry module; the loadable types are "application/javascript+module", "text/plain", "application/octet-stream", "application/wasm".`, 1, `Set main_module to a module of a loadable type, or give "index.js.map" one of those types.`).at("main_module"))
	cfg = bundleConfig(t, h, filepath.Join(dir, "missing.js"))
	pr = h.plan("takoform_worker_bundle", cfg, nil)
	wantDiags(t, named(pr.diags, "<dir>", dir), errorDiag("Module file cannot be read",
		`modules[0].content_file: <dir>/missing.js cannot be read (no such file or directory), so nothing was planned. Relative paths resolve against OpenTofu's working directory; write "${path.module}/…".`).
		at("modules[0].content_file"))
}

// applyAfterTheFileMoves plans a WorkerBundle from one local module file, lets between
// change that file, applies the plan and returns the apply's diagnostics with the
// file's path. A failed upload step is local: it fails the test when the apply reached
// the host (an upload or a mutation counted).
func applyAfterTheFileMoves(t *testing.T, between func(file string) error) (string, []*tfprotov6.Diagnostic) {
	t.Helper()
	h := newHarness(t, hostsim.Config{})
	file := filepath.Join(t.TempDir(), "index.js")
	if err := os.WriteFile(file, []byte(`export default {};`), 0o644); err != nil {
		t.Fatal(err)
	}
	bcfg := bundleConfig(t, h, file)
	pr := h.plan("takoform_worker_bundle", bcfg, nil)
	mustNoError(t, "plan bundle", pr.diags)
	if err := between(file); err != nil {
		t.Fatal(err)
	}
	before, _ := h.sim.Admin.Counters()
	_, d := h.apply("takoform_worker_bundle", bcfg, nil, pr.planned)
	if after, _ := h.sim.Admin.Counters(); after.Uploads != before.Uploads || after.Mutations != before.Mutations {
		t.Errorf("the failed upload reached the host: uploads %d→%d, mutations %d→%d", before.Uploads, after.Uploads, before.Mutations, after.Mutations)
	}
	return file, d
}

// TestBundleChangedSincePlanNamesItsCodeOnce: a local failure of the upload step (the
// files changed between plan and apply) carries the provider code once, not the code
// wrapped around itself, and nothing reaches the host.
func TestBundleChangedSincePlanNamesItsCodeOnce(t *testing.T) {
	t.Parallel()
	_, d := applyAfterTheFileMoves(t, func(file string) error {
		return os.WriteFile(file, []byte(`export default { changed: true };`), 0o644)
	})
	// the code line names the provider code once, not wrapped around itself
	wantDiags(t, d, errorDiag("Bundle upload for WorkerBundle bundle-340de09ca4b1-14c2529eb449 failed",
		"The local module files could not be uploaded and committed; no resource was touched.",
		"",
		"Cause: the module files changed since plan: they now describe <sha256-1>, the plan has <sha256-2>",
		"",
		"Resource: takoform_worker_bundle (dev/bundle-340de09ca4b1-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerBundle@0.1.0 schema=<sha256-3>",
		"Pointer: /spec/manifestDigest",
		"Code: takoform.provider/bundle-upload-failed",
		"Retryable: no",
		"",
		"Run the plan again so it describes the files as they are now, then apply that plan; keep the files unchanged between plan and apply."))
}

// TestBundleFileGoneSincePlanSaysWhatToCheck: a bundle file that can no longer be read
// at apply (removed after the plan) fails the upload step locally, with the repair for
// files that cannot be read, and nothing reaches the host.
func TestBundleFileGoneSincePlanSaysWhatToCheck(t *testing.T) {
	t.Parallel()
	file, d := applyAfterTheFileMoves(t, os.Remove)
	wantDiags(t, named(d, "<file>", file), errorDiag("Bundle upload for WorkerBundle bundle-340de09ca4b1-14c2529eb449 failed",
		"The local module files could not be uploaded and committed; no resource was touched.",
		"",
		"Cause: open <file>: no such file or directory",
		"",
		"Resource: takoform_worker_bundle (dev/bundle-340de09ca4b1-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerBundle@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/manifestDigest",
		"Code: takoform.provider/bundle-upload-failed",
		"Retryable: no",
		"",
		"Check that every file of the bundle is readable and unchanged since plan, then plan and apply again."))
}
