package takoform

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

func counters(t *testing.T, h *harness) (requests, mutations int64) {
	t.Helper()
	c, err := h.sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	return c.Requests, c.Mutations
}

func TestLostResponseReplaysWithinTheApply(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("response.drop-after-commit,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	if st.str(aUID) == "" || st.str(aPendingOp) != "" {
		t.Fatalf("after the replay: uid=%q pending=%q", st.str(aUID), st.str(aPendingOp))
	}
	if _, muts := counters(t, h); muts != 1 {
		t.Errorf("mutations = %d, want exactly 1 (the resend must replay, not mutate again)", muts)
	}
}

// queueUIDMismatch is the uid rule's refusal about queue dev/orders, under definition
// version, naming the uid the state expects and the one the host serves at gen and rev.
func queueUIDMismatch(what, version, expected, current, gen, rev string) diagnostic {
	return errorDiag("AtLeastOnceQueue dev/orders on the host is not the object this state tracks",
		what,
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@"+version+" schema=<sha256-1>",
		"Pointer: /metadata/uid",
		"Expected UID: "+expected,
		"Current UID: "+current,
		"Current generation: "+gen,
		"Current revision: "+rev,
		"Code: takoform.provider/uid-mismatch",
		"Retryable: no",
		"",
		"Choose one: (1) tofu state rm this resource and tofu import the new object; (2) restore the original object on the host; (3) delete the host-side replacement and apply again.").at("uid")
}

// sameNameOtherUID is what the uid rule says of another incarnation under the recorded ref.
const sameNameOtherUID = "The host serves another incarnation under this name (it was deleted and re-created outside this configuration). The state was kept exactly as it was: it is neither re-bound to the new object nor removed."

func TestUIDMismatchKeepsState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	old := h.create(queueType, cfg)
	// out of band: delete and re-create under the same name
	_, d := h.apply(queueType, nil, old, nil)
	mustNoError(t, "delete", d)
	fresh := h.create(queueType, cfg)
	if fresh.str(aUID) == old.str(aUID) {
		t.Fatal("re-create kept the uid")
	}
	st, d := h.read(queueType, old)
	wantDiags(t, named(d, "<state's uid>", old.str(aUID), "<host's uid>", fresh.str(aUID)),
		queueUIDMismatch(sameNameOtherUID, "0.2.0", "<state's uid>", "<host's uid>", "1", "1"))
	wantKept(t, old, st)
}

func TestUnknownStateRefFailsClosed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	unknown := "sha256:" + strings.Repeat("0", 64)
	st[aFormSchemaDigest] = s(unknown)
	before, _ := counters(t, h)
	// the carried refs are listed; the recorded one is the unknown digest
	unsupported := errorDiag("This provider does not carry the Form identity recorded in state",
		"The state records a Form this build does not carry. No request was sent. This build carries:",
		"  edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"  edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-2>",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<recorded>",
		"Code: takoform.provider/state-form-ref-unsupported",
		"Retryable: no",
		"",
		"Use a provider build whose catalog carries the recorded Form, or remove the resource from state and import it.")
	_, d := h.read(queueType, st)
	wantDiags(t, named(d, "<recorded>", unknown), unsupported)
	// plan fails closed too
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)}, st)
	wantDiags(t, named(pr.diags, "<recorded>", unknown), unsupported)
	st[aFormSchemaDigest] = s("")
	_, d = h.read(queueType, st)
	wantDiags(t, d, errorDiag("State has no exact Form identity for takoform_at_least_once_queue.orders",
		"The state lacks one of form_api_version, form_kind, form_definition_version and form_schema_digest, so the provider cannot tell which Form definition this resource was created under. No request was sent: a request under a guessed Form would look like a deletion.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Code: takoform.provider/state-form-ref-missing",
		"Retryable: no",
		"",
		"Remove the resource from state (tofu state rm) and import it again."))
	if after, _ := counters(t, h); after != before {
		t.Errorf("requests = %d after failing closed, want %d (no host call)", after, before)
	}
}

func TestRetryableErrorsRetryUnderOneKey(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	h.configure(map[string]string{"endpoint": h.sim.URL, "token": "sim-primary", "space": "dev"})
	if err := h.sim.Admin.ArmFault("error=backend_unavailable,kind=AtLeastOnceQueue,resource=orders,count=2"); err != nil {
		t.Fatal(err)
	}
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	if st.str(aUID) == "" {
		t.Fatal("no uid after retries")
	}
	// The host's journal shows the retries: three PUTs of orders, two answered 503 and
	// one 201, all under one Idempotency-Key; one mutation; both faults fired.
	reqs, err := h.sim.Admin.Requests()
	if err != nil {
		t.Fatal(err)
	}
	keys, statuses := map[string]int{}, map[int]int{}
	for _, r := range reqs {
		if r.Route == "apply" && strings.HasSuffix(r.Path, "/orders") {
			keys[r.IdempotencyKey]++
			statuses[r.Status]++
		}
	}
	if len(keys) != 1 || keys[""] != 0 || statuses[503] != 2 || statuses[201] != 1 || len(statuses) != 2 {
		t.Fatalf("the create's PUTs: keys %v, statuses %v; want three PUTs under one key, two 503 then one 201", keys, statuses)
	}
	c, err := h.sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	if c.Mutations != 1 || c.Fired["error=backend_unavailable"] != 2 {
		t.Fatalf("mutations %d, fired %v; want one mutation and both transient errors fired", c.Mutations, c.Fired)
	}
}

func TestNonRetryableErrorCarriesCodeRequestAndRepair(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("error=invalid_argument,kind=AtLeastOnceQueue,resource=orders,count=1"); err != nil {
		t.Fatal(err)
	}
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d := h.apply(queueType, cfg, nil, pr.planned)
	wantDiags(t, d, errorDiag("Failed to create AtLeastOnceQueue orders",
		"The host refused the create; nothing was written to state.",
		"",
		"Host: error invalid_argument injected by an armed hostsim fault (error=invalid_argument)",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec",
		"Request: <req-1>",
		"Code: invalid_argument (host, HTTP 400)",
		"Retryable: no",
		"",
		"The host refused the request as written. Fix the value at the pointer its message names, then apply again."))
	if st != nil {
		t.Errorf("a refused create wrote state: %v", st)
	}
}

// unfinishedEndpoint is a harness whose endpoint api-edge the host accepted and has not
// finished creating (hostsim's apply.accept-unfinished): the state records the operation.
func unfinishedEndpoint(t *testing.T) (*harness, values) {
	t.Helper()
	h := withWorker(t, hostsim.Config{})
	if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=WorkerEndpoint,count=1"); err != nil {
		t.Fatal(err)
	}
	cfg := endpointConfig(values{aCreateTimeout: s("300ms")})
	pr := h.plan(endpointType, cfg, nil)
	st, d := h.apply(endpointType, cfg, nil, pr.planned)
	mustNoError(t, "apply", d)
	return h, st
}

func TestPendingRefreshKeepsStateWhileAbsent(t *testing.T) {
	t.Parallel()
	h, st := unfinishedEndpoint(t)
	rd, d := h.read(endpointType, st)
	wantDiags(t, named(d, "<pending>", st.str(aPendingOp)), warningDiag("WorkerEndpoint api-edge is still changing on the host",
		"The host has not finished the operation recorded in pending_operation_id; the state keeps the marker and the next refresh checks again.",
		"",
		"Resource: takoform_worker_endpoint (dev/api-edge)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerEndpoint@0.2.0 schema=<sha256-1>",
		"Operation: <pending>",
		"Code: accepted-without-representation (host)",
		"Retryable: no",
		"",
		"Run tofu apply or tofu refresh again later."))
	if rd == nil || rd.str(aPendingOp) != st.str(aPendingOp) {
		t.Fatalf("refresh of a running create dropped the resource or its marker: %v", rd)
	}
}

func TestImportAdoptsTheHostSpec(t *testing.T) {
	t.Parallel()
	h := withWorker(t, hostsim.Config{})
	cfg := endpointConfig(nil)
	created := h.create(endpointType, cfg)
	ids := []string{"api-edge", "dev/api-edge", "  dev/api-edge\n", `{"name":"api-edge"}`, `{"space":"dev","name":"api-edge"}`,
		`{"space":"dev","name":"api-edge","apiVersion":"` + created.str(aFormAPIVersion) + `","kind":"WorkerEndpoint","definitionVersion":"0.2.0","schemaDigest":"` + created.str(aFormSchemaDigest) + `"}`}
	for _, id := range ids {
		imp, d := h.importID(endpointType, id)
		mustNoError(t, "import "+id, d)
		st, d := h.read(endpointType, imp)
		mustNoError(t, "read after import "+id, d)
		if st.str("worker") != "api" || st.str(aUID) != created.str(aUID) {
			t.Fatalf("import %s: worker=%q uid=%q", id, st.str("worker"), st.str(aUID))
		}
		pr := h.plan(endpointType, cfg, st)
		mustNoError(t, "plan after import", pr.diags)
		if len(pr.replace) != 0 {
			t.Errorf("import %s: plan replaces %v", id, pr.replace)
		}
		wantPlannedUnchanged(t, "import "+id+": plan", st, pr.planned)
	}
	for bad, why := range map[string]string{
		"":                                     `name "" does not match ^[a-z][a-z0-9-]{0,62}$. A name is 1 to 63 lower-case letters, digits and hyphens, starting with a letter.`,
		"a/b/c":                                `the ID holds more than one "/".`,
		"Bad_Name":                             `name "Bad_Name" does not match ^[a-z][a-z0-9-]{0,62}$. A name is 1 to 63 lower-case letters, digits and hyphens, starting with a letter.`,
		`{"name":"x","kind":"WorkerEndpoint"}`: "give all four of apiVersion, kind, definitionVersion and schemaDigest, or none.",
		`{"name":"x","extra":1}`:               `the JSON import ID is not valid: /extra: unknown member "extra"; this object is closed, so remove it or check its spelling.`,
		`{"space":"","name":"x"}`:              "space is empty.",
		"/x":                                   `the space before "/" is empty.`,
		"dev/":                                 `the name after "/" is empty.`,
		`{"space":"dev ","name":"x"}`:          `space "dev " starts or ends with whitespace or U+FEFF; spaces are never trimmed, so remove it.`,
	} {
		_, d := h.importID(endpointType, bad)
		wantDiags(t, d, errorDiag("Invalid import ID",
			why,
			"",
			"Resource: takoform_worker_endpoint",
			"Pointer: /metadata/name",
			"Code: takoform.provider/import-id-invalid",
			"Retryable: no",
			"",
			`Accepted import IDs: NAME (the provider's default space), SPACE/NAME, or a JSON object {"space":…,"name":…,"apiVersion":…,"kind":…,"definitionVersion":…,"schemaDigest":…} with name required, space optional, and the four Form members all or none.`))
	}
	_, d := h.importID(endpointType, "dev/nothing-here")
	wantDiags(t, d, errorDiag("WorkerEndpoint dev/nothing-here was not found under any definition version this provider carries",
		"The host has no resource of that name under any of those versions, so nothing was imported. Probed: WorkerEndpoint@0.2.0 schema=<sha256-1>; WorkerEndpoint@0.1.0 schema=<sha256-2>.",
		"",
		"Resource: takoform_worker_endpoint (dev/nothing-here)",
		"Pointer: /metadata",
		"Retryable: no",
		"",
		"Check the name and space, or create the resource instead of importing it."))
}

func TestDeleteOfAbsentResourceIsDone(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	_, d := h.apply(queueType, nil, st, nil)
	mustNoError(t, "delete", d)
	_, d = h.apply(queueType, nil, st, nil)
	mustNoError(t, "second delete of the same state", d)
}

func TestPendingDeleteIsObservedByRefresh(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(60), aDeleteTimeout: s("300ms")})
	if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	kept, d := h.apply(queueType, nil, st, nil)
	if kept == nil || kept.str(aPendingOp) == "" {
		t.Fatalf("want the kept state with a marker: %v", kept)
	}
	wantDiags(t, named(d, "<uid>", st.str(aUID), "<pending>", kept.str(aPendingOp)), errorDiag("AtLeastOnceQueue orders was accepted for deletion but has not finished",
		"The host accepted the delete but it did not finish in time (delete_timeout ran out while polling). The state is kept with pending_operation_id so the next refresh observes the outcome.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /metadata",
		"Expected UID: <uid>",
		"Expected generation: 1",
		"Operation: <pending>",
		"Code: accepted-without-representation (host)",
		"Retryable: no",
		"",
		"Run tofu destroy (or apply) again once the host has finished."))
	if _, err := h.sim.Admin.Complete(kept.str(aPendingOp)); err != nil {
		t.Fatal(err)
	}
	rd, d := h.read(queueType, kept)
	mustNoError(t, "refresh after the delete finished", d)
	if rd != nil {
		t.Errorf("the finished delete left the resource in state: %v", rd)
	}
}

func TestImportFindsTheOldRefNewestFirst(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	createOldQueue(h)
	imp := importOldQueue(t, h)
	st, d := h.read(queueType, imp)
	mustNoError(t, "read", d)
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	wantPlannedUnchanged(t, "plan after importing the old ref", st, pr.planned)
}

func TestUnfinishedUpdateKeepsPriorStateWithTheMarker(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	// create_timeout is short too: an update that polled under it (the re-pin's
	// timeout) would end in seconds naming create_timeout, not hang the test.
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(60), aUpdateTimeout: s("300ms"), aCreateTimeout: s("2s")}
	st := h.create(queueType, cfg)
	if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	cfg2 := cfg.clone()
	cfg2["message_retention_seconds"] = i64(120)
	pr := h.plan(queueType, cfg2, st)
	mustNoError(t, "plan", pr.diags)
	up, d := h.apply(queueType, cfg2, st, pr.planned)
	wantDiags(t, named(d, "<uid>", st.str(aUID), "<pending>", up.str(aPendingOp)), errorDiag("AtLeastOnceQueue orders was accepted by the host but has not finished",
		"The host accepted the update but its outcome was not known in time (update_timeout ran out while polling). The state keeps the prior values and records the operation; the next refresh observes the outcome.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec",
		"Expected UID: <uid>",
		"Expected generation: 1",
		"Expected revision: 1",
		"Operation: <pending>",
		"Code: accepted-without-representation (host)",
		"Retryable: no",
		"",
		"Run tofu apply again once the host has finished."))
	if up.str(aGeneration) != "1" || !up["message_retention_seconds"].Equal(i64(60)) || up.str(aPendingOp) == "" {
		t.Fatalf("state: gen=%q retention=%v pending=%q", up.str(aGeneration), up["message_retention_seconds"], up.str(aPendingOp))
	}
	// refreshed while the host still runs the update, the state reads the resource as it
	// is and keeps the marker, so the refresh after the host finishes consults it again
	running, d := h.read(queueType, up)
	if len(d) != 1 || d[0].Summary != "AtLeastOnceQueue orders is still changing on the host" || running.str(aPendingOp) != up.str(aPendingOp) || running.str(aGeneration) != "1" {
		t.Fatalf("refresh while the update runs: %v; pending=%q gen=%q, want the warning, the marker kept, generation 1", normalizeDiags(d), running.str(aPendingOp), running.str(aGeneration))
	}
	if _, err := h.sim.Admin.Complete(up.str(aPendingOp)); err != nil {
		t.Fatal(err)
	}
	rd, d := h.read(queueType, running)
	mustNoError(t, "refresh", d)
	if rd.str(aPendingOp) != "" || rd.str(aGeneration) != "2" || !rd["message_retention_seconds"].Equal(i64(120)) {
		t.Errorf("after the host finished: pending=%q gen=%q retention=%v", rd.str(aPendingOp), rd.str(aGeneration), rd["message_retention_seconds"])
	}
	if pr := h.plan(queueType, cfg2, rd); len(pr.replace) != 0 || hasError(pr.diags) {
		t.Errorf("plan after convergence: %v %s", pr.replace, dump(pr.diags))
	}
}

func TestDeleteOfAPinnedTargetExplainsTheTeardownOrder(t *testing.T) {
	t.Parallel()
	h := withWorker(t, hostsim.Config{})
	imp, d := h.importID(workerType, "api")
	mustNoError(t, "import", d)
	st, d := h.read(workerType, imp)
	mustNoError(t, "read", d)
	kept, d := h.apply(workerType, nil, st, nil)
	wantDiags(t, named(d, "<uid>", st.str(aUID)), errorDiag("Failed to delete ModuleWorker api",
		"The host refused the delete; the resource stays in state.",
		"",
		`Host: ModuleWorker "api" in space "dev" is still referenced by WorkerDeployment "api" (/worker), WorkerVersion "version-4a41bf3db05a-14c2529eb449" (/worker); delete or change those first`,
		"",
		"Resource: takoform_module_worker (dev/api)",
		"Form: edge.forms.takokit.dev/v1beta1 ModuleWorker@0.1.0 schema=<sha256-1>",
		"Pointer: /metadata",
		"Expected UID: <uid>",
		"Expected generation: 1",
		"Request: <req-1>",
		"Code: dependency_in_use (host, HTTP 409)",
		"Retryable: no",
		"",
		"Something still points at this resource. Remove or repoint its dependents first: attachments and inbound callers, then the deployment, then versions, then bundles, then the worker."))
	if kept == nil || kept.str(aUID) != st.str(aUID) {
		t.Error("a refused delete must keep the resource in state")
	}
}

// TestDeleteOfAnUnfinishedCreateLearnsItsGenerationFirst: a create the host
// accepted and had not finished leaves a state without a generation; destroying
// it reads the resource first for the fence, and deletes what it found under it.
func TestDeleteOfAnUnfinishedCreateLearnsItsGenerationFirst(t *testing.T) {
	t.Parallel()
	unfinished := func(t *testing.T) (*harness, values) {
		h := newHarness(t, hostsim.Config{})
		if err := h.sim.Admin.ArmFault("apply.accept-unfinished,kind=AtLeastOnceQueue,count=1"); err != nil {
			t.Fatal(err)
		}
		cfg := values{aName: s("orders"), "message_retention_seconds": i64(60), aCreateTimeout: s("300ms")}
		st, d := h.apply(queueType, cfg, nil, h.plan(queueType, cfg, nil).planned)
		mustNoError(t, "the unfinished create", d)
		if st == nil || st.str(aPendingOp) == "" || st.str(aGeneration) != "" {
			t.Fatalf("want a state with pending_operation_id and no generation, got %v", st)
		}
		return h, st
	}
	gone := func(t *testing.T, h *harness) {
		t.Helper()
		if _, d := h.importID(queueType, "dev/orders"); !hasError(d) {
			t.Fatalf("dev/orders is still on the host after the destroy: %s", dump(d))
		}
	}
	t.Run("finished since", func(t *testing.T) {
		t.Parallel()
		h, st := unfinished(t)
		if _, err := h.sim.Admin.Complete(st.str(aPendingOp)); err != nil {
			t.Fatal(err)
		}
		after, d := h.apply(queueType, nil, st, nil)
		mustNoError(t, "destroy", d)
		if after != nil {
			t.Errorf("the destroy kept a state: %v", after)
		}
		gone(t, h)
	})
	t.Run("still running", func(t *testing.T) {
		t.Parallel()
		h, st := unfinished(t)
		after, d := h.apply(queueType, nil, st, nil)
		mustNoError(t, "destroy of a create that made nothing yet", d)
		if after != nil {
			t.Errorf("the destroy kept a state: %v", after)
		}
		gone(t, h)
	})
	t.Run("unreadable", func(t *testing.T) {
		t.Parallel()
		h, st := unfinished(t)
		if _, err := h.sim.Admin.Complete(st.str(aPendingOp)); err != nil {
			t.Fatal(err)
		}
		if err := h.sim.Admin.ArmFault("error=permission_denied,kind=AtLeastOnceQueue,route=read,count=1"); err != nil {
			t.Fatal(err)
		}
		after, d := h.apply(queueType, nil, st, nil)
		wantDiags(t, d, errorDiag("Failed to delete AtLeastOnceQueue orders",
			"The resource could not be read to learn its generation before deleting it.",
			"",
			"Host: error permission_denied injected by an armed hostsim fault (error=permission_denied)",
			"",
			"Resource: takoform_at_least_once_queue (dev/orders)",
			"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
			"Pointer: /metadata",
			"Request: <req-1>",
			"Code: permission_denied (host, HTTP 403)",
			"Retryable: no",
			"",
			"The credential may not do this. Use a token that is allowed to."))
		if after.str(aPendingOp) != st.str(aPendingOp) {
			t.Errorf("the failed destroy lost the state's marker: %v", after)
		}
		if _, d := h.importID(queueType, "dev/orders"); hasError(d) {
			t.Errorf("a destroy that could not read the resource deleted it anyway: %s", dump(d))
		}
	})
}

// TestUpdateAnsweredForAnotherIncarnationKeepsState: the provider fences an update
// on the state's uid; a host that ignores the fence (hostsim uid.ignore-expected)
// and updates the object re-created under the name is caught by the answer's uid,
// and the state stays as it was instead of adopting the other object.
func TestUpdateAnsweredForAnotherIncarnationKeepsState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	old := h.create(queueType, cfg)
	_, d := h.apply(queueType, nil, old, nil) // out of band: delete and re-create under the same name
	mustNoError(t, "delete", d)
	fresh := h.create(queueType, cfg)
	if err := h.sim.Admin.ArmFault("uid.ignore-expected,kind=AtLeastOnceQueue"); err != nil {
		t.Fatal(err)
	}
	changed := values{aName: s("orders"), "message_retention_seconds": i64(7200)}
	pr := h.plan(queueType, changed, old)
	mustNoError(t, "plan", pr.diags)
	st, d := h.apply(queueType, changed, old, pr.planned)
	wantDiags(t, named(d, "<state's uid>", old.str(aUID), "<host's uid>", fresh.str(aUID)),
		queueUIDMismatch(sameNameOtherUID, "0.2.0", "<state's uid>", "<host's uid>", "2", "2"))
	wantKept(t, old, st)
}
