package conformance

// Negative is a hostsim configuration under which a check MUST fail
// (docs/guides/conformance.md): a built-in profile plus faults (docs/protocol.md#faults text form),
// armed after the runner read the host's surface. Fragment is the row's
// expected-failure matcher: it must appear in the failure message and names the
// rule's own failure (what the check expected and, where that identifies the rule,
// what came back), never a setup step's status. The self-test also refuses a
// failure that is an earlier request's error status ("expected 2xx, got 4xx/5xx")
// unless the fragment itself says the rule is a success refused. Wanted names a
// narrower fault hostsim does not offer yet that would break exactly the behaviour
// the check measures; a row with Wanted is caught but not isolated, and the
// self-test says so. Missing is set when no available profile or fault breaks the
// check at all.
type Negative struct {
	Profile  string
	Faults   []string
	Fragment string
	Wanted   string
	Missing  bool
	// Catalog names a test catalog hostsim and the runner share for this row
	// (the self-test builds it; "" = the runner's catalog): a check no catalog
	// the project ships can exercise first passes there, then fails under the
	// faults.
	Catalog string
	// BeforeSurface arms the faults before the runner reads the host's surface
	// instead of after it: for a rule a check judges on the surface the runner
	// read (the support profiles), not on requests of its own.
	BeforeSurface bool
}

// CatalogTwoGroups is the test catalog installing one kind name in two groups
// (catalog/catalogtest.TwoGroups).
const CatalogTwoGroups = "two-groups"

// CatalogSecondDefinitions is the test catalog installing two more definition
// versions of the worker: one no reference lists by FormRef, one withholding its
// Interfaces (catalog/catalogtest.SecondDefinitions).
const CatalogSecondDefinitions = "second-definitions"

// targeted is a negative by one hostsim fault that breaks exactly the rule the
// check measures.
func targeted(fault, fragment string) Negative {
	return Negative{Profile: "full", Faults: []string{fault}, Fragment: fragment}
}

// beforeSurface is n with its faults armed before the runner reads the surface.
func beforeSurface(n Negative) Negative {
	n.BeforeSurface = true
	return n
}

// NegativesOf gives every registered negative of a check: its first (Negatives)
// and then its further ones (MoreNegatives).
func NegativesOf(id string) []Negative {
	n, ok := Negatives()[id]
	if !ok {
		return nil
	}
	return append([]Negative{n}, MoreNegatives()[id]...)
}

// MoreNegatives maps a check id to its further negatives: a check with several
// rules, whose first negative fails an early one, gets one more for each later
// rule no negative reached, each failing the check at exactly that rule (the
// mutation tool finds such rules: a rule no negative reaches can be deleted
// with every test still passing; docs/mutation.md). The self-test proves each
// like the first.
func MoreNegatives() map[string][]Negative {
	return map[string][]Negative{
		// the last rule: refused stale requests leave the resource unchanged
		"stale-generation-rejected": {targeted("fence.refusal-writes", "refused stale requests moved the resource")},
		// the last rule: each error answer carries a requestId of its own
		"error-envelope-taxonomy": {targeted("errors.request-id-fixed", "it must be unique per answer")},
		// the later rule: two endpoints of two workers get two addresses (the
		// first negative fails the outputs' shape)
		"worker-endpoint-address-is-host-assigned": {targeted("endpoint.shared-address", "got the same address")},
		// the last rules: no runtime compatibility statement in a FormSupport profile
		"support-profiles-present": {
			targeted("support.compatibility-date", "advertises supportedRanges.compatibilityDate"),
			targeted("support.compatibility-flags", "advertises supportedEnums.compatibilityFlags"),
		},
		// (judged on the profiles the runner read with the surface)
		"module-worker-runtime-contract-advertised": {
			beforeSurface(targeted("support.compatibility-date", "a compatibilityDate range is advertised")),
			beforeSurface(targeted("support.compatibility-flags", "a compatibilityFlags enum is advertised")),
		},
	}
}

// Negatives maps every check id to its first negative. TestNegatives requires one per check.
func Negatives() map[string]Negative {
	return map[string]Negative{
		"discovery-exact":                 targeted("discovery.omit-feature", "exact_form_ref"),
		"unauthenticated-request-refused": targeted("auth.accept-any", "expected 401 unauthenticated"),

		"forms-exact-availability":                          targeted("forms.unavailable", "activated"),
		"form-definition-exact":                             targeted("definition.drift", "desiredSchema"),
		"exact-form-ref-fails-closed-on-unknown-definition": targeted("formref.loose", "expected 404 form_unknown"),
		"two-definition-versions-answer-independently":      targeted("formref.collapse", "identity.formRef is"),
		"namespaced-group-travels-as-two-path-segments":     targeted("path.decode-group", "expected 404"),

		"validate-accepts-canonical":         targeted("validate.invert", "expected {\"valid\": true"),
		"validate-rejects-negative-fixtures": targeted("validate.invert", "expected valid:false"),
		"prepare-binds-exact-spec":           targeted("prepare.no-materialize", "all three must be equal"),
		"prepare-substitution-rejected":      targeted("prepare.unbound", "expected 400 invalid_argument"),
		"prepare-requires-update-fence":      targeted("prepare.no-fence", "expected 400 invalid_argument"),
		"stale-prepare-rejected":             targeted("prepare.unbound", "expected 400 invalid_argument"),

		"apply-create-uid-minted":                           targeted("uid.invalid", "does not match the uid grammar"),
		"apply-headers-required":                            targeted("headers.lenient", "(no Idempotency-Key)"),
		"create-conflict-when-exists":                       targeted("create.overwrite", "expected 412 generation_conflict"),
		"update-generation-fence":                           targeted("fence.ignore", "expected 400 invalid_argument"),
		"stale-generation-rejected":                         targeted("fence.ignore", "expected 412 generation_conflict"),
		"revision-etag-exact":                               targeted("etag.weak", "does not equal the quoted revision"),
		"observe-fence-exact":                               targeted("fence.ignore", "expected 412 generation_conflict"),
		"spec-change-bumps-generation":                      targeted("generation.frozen", "expected \"2\" for all"),
		"status-change-bumps-revision-not-generation":       targeted("generation.on-status", "expected generation \"1\" and revision \"2\""),
		"delete-generation-fence":                           targeted("fence.ignore", "expected 412 generation_conflict"),
		"delete-revision-fence":                             targeted("ifmatch.ignore", "expected 412 revision_conflict"),
		"delete-then-recreate-uid-changes":                  targeted("uid.reuse", "reuses uid"),
		"expected-uid-mismatch-rejected":                    targeted("uid.ignore-expected", "expected 409 uid_mismatch"),
		"package-digest-not-identity":                       targeted("formref.package-key", "expected 400 invalid_argument"),
		"resource-answers-only-under-its-recorded-form-ref": targeted("formref.any-version", "expected 404 resource_not_found"),
		"revision-role-update-rejected":                     targeted("capability.ignore", "expected 400 invalid_argument"),
		"no-update-spec-change-rejected":                    targeted("capability.ignore", "expected 400 invalid_argument, got 422 unsupported_capability"),
		"concurrent-unrelated-mutation":                     targeted("mutation.exclusive", "expected 201, got 409 resource_busy"),
		"async-commit-revalidates":                          targeted("commit.skip-fences", "must end with generation_conflict"),
		"resource-observe-is-tenant-isolated":               targeted("tenant.ignore", "by another tenant)"),
		"prepare-is-tenant-scoped":                          targeted("prepare.host-wide", "another tenant spending a prepareDigest"),
		"stale-revision-rejected":                           targeted("ifmatch.ignore", "expected 412 revision_conflict"),
		"condition-reason-closed":                           targeted("status.invent-reason", "InventedByHostsim"),
		"import-adopts-native-resource":                     targeted("import.echo-native", "carries the nativeId"),
		"import-validates-like-apply":                       targeted("import.unchecked", "expected 400 invalid_argument"),
		"import-claims-its-native-identity":                 targeted("import.no-claim", "expected 409 import_conflict"),
		"resource-import-is-tenant-isolated":                targeted("tenant.ignore", "by another tenant)"),
		"immutable-field-change-rejected":                   {Profile: "full", Faults: []string{"immutable.ignore", "relations.ignore-missing"}, Fragment: "expected 400 invalid_argument, got 200"},

		"apply-idempotency-replay":                   targeted("idempotency.no-replay", "expected the recorded"),
		"replay-record-retires-with-its-incarnation": targeted("idempotency.no-retire", "replayed the retired answer"),
		"cross-principal-idempotency-isolation":      targeted("idempotency.tenant-wide", "recorded answer"),
		"idempotency-is-tenant-scoped":               targeted("idempotency.host-wide", "received the recorded answer"),

		"async-operation-flow":                      {Profile: "full", Faults: []string{"apply.accept-unfinished"}, Fragment: "still pending"},
		"operation-replay-terminal":                 targeted("operation.unstable", "the same document byte for byte"),
		"operation-resumable-after-settlement":      {Profile: "full", Faults: []string{"apply.accept-unfinished"}, Fragment: "still pending"},
		"operation-cancel":                          targeted("operation.uncancellable", "operation_cancelled, retryable false"),
		"operation-bound-to-its-creating-principal": targeted("operation.tenant-wide", "expected 404 operation_not_found"),
		"async-commit-binds-the-accepted-identity":  targeted("commit.skip-identity", "must end with uid_mismatch"),

		"form-declared-outputs-are-exact":      {Profile: "full", Faults: []string{"outputs.empty-when-undeclared"}, Fragment: "must be omitted"},
		"outputs-move-revision-not-generation": targeted("generation.on-status", `a host-side change of status moved the generation to "2"`),

		"support-profiles-present":                       targeted("support.omit-profile", "has no support profile of its own"),
		"support-form-refusal-is-form-unknown":           targeted("support.refuse-code", "expected 404 form_unknown, got 404 resource_not_found"),
		"support-contract-refusal-is-resource-not-found": targeted("support.refuse-code", "expected 404 resource_not_found, got 404 form_unknown"),
		"support-profile-carries-no-commercial-data":     targeted("support.commercial", `carries commercial data ("price"`),
		"support-profile-enforced-at-apply":              {Profile: "tight-limits", Faults: []string{"support.unenforced"}, Fragment: "expected 422 unsupported_capability"},

		"error-envelope-taxonomy":               targeted("errors.retryable-wrong", "marked retryable but the code is never retryable"),
		"strict-json-duplicate-member-rejected": targeted("json.duplicates", "expected 400 invalid_argument"),
		"strict-json-unknown-member-rejected":   targeted("json.unknown-members", "expected 400 invalid_argument"),
		"space-id-grammar-enforced":             targeted("space.lenient", "(metadata.space with"),

		"cross-space-isolation":              targeted("space.ignore", "(the name in another space)"),
		"resource-read-is-tenant-isolated":   targeted("tenant.ignore", "by another tenant)"),
		"resource-update-is-tenant-isolated": targeted("tenant.ignore", "by another tenant)"),
		"resource-delete-is-tenant-isolated": targeted("tenant.ignore", "by another tenant)"),
		"each-tenant-mutates-its-own-plane":  targeted("tenant.ignore", "another tenant's delete answered"),

		"binding-target-missing-404-before-mutation":    targeted("relations.ignore-missing", "expected 404 resource_not_found"),
		"dependency-in-use-on-bound-target-delete":      targeted("delete.skip-dependents", "expected 409 dependency_in_use"),
		"relation-target-deletion-blocked":              targeted("delete.skip-dependents", "expected 409 dependency_in_use"),
		"binding-contract-verified":                     {Profile: "no-bucket-binding", Faults: []string{"bindings.unchecked"}, Fragment: "expected 422 unsupported_capability, got 201"},
		"deployment-weight-sum-enforced":                targeted("aggregate.unchecked", "expected 400 invalid_argument"),
		"deployment-single-active-per-worker":           targeted("aggregate.unchecked", "expected 400 invalid_argument"),
		"attachment-requires-active-deployment":         targeted("aggregate.unchecked", "expected 422 unsupported_capability"),
		"worker-endpoint-address-is-host-assigned":      {Profile: "full", Faults: []string{"outputs.omit"}, Fragment: "status.outputs lacks"},
		"worker-endpoint-single-per-worker":             targeted("aggregate.unchecked", "expected 400 invalid_argument"),
		"worker-endpoint-address-is-stable-for-its-uid": targeted("endpoint.reassign", "the address moved"),

		"relation-target-missing-rejected":           targeted("relations.ignore-missing", "expected 404 resource_not_found"),
		"relation-incarnation-change-detected":       targeted("relations.no-drift", "DependencyMissing"),
		"relation-reapply-repins":                    targeted("relations.no-repin", "re-pin"),
		"deployment-version-duplicate-rejected":      targeted("aggregate.unchecked", "expected 400 invalid_argument"),
		"deployment-version-ownership":               targeted("aggregate.unchecked", "expected 400 invalid_argument"),
		"binding-name-collision-rejected":            targeted("aggregate.unchecked", "expected 400 invalid_argument"),
		"deployment-delete-blocked-by-dependent":     targeted("delete.skip-dependents", "expected 409 dependency_in_use"),
		"dependent-revision-advances-with-rendering": targeted("rendering.frozen", "derived readiness"),
		"declared-handler-not-exported-rejected":     targeted("artifacts.no-export-scan", "expected 400 invalid_argument"),

		"delete-fence-survives-derived-rendering": targeted("delete.revision-fenced", "expected 204, got 412 generation_conflict"),
		"artifact-commit-binds-declared-size":     targeted("artifacts.trust-declared", "expected 400 artifact_invalid"),
		"artifact-retention-while-referenced":     targeted("artifacts.forget", "expected 201, got 404 artifact_missing"),
		"resource-address-is-tenant-scoped":       targeted("tenant.ignore", "expected 200, got 400 invalid_argument"),
		"relation-resolution-is-tenant-scoped":    targeted("tenant.ignore", "referring to names only the first tenant holds"),

		"attachment-claim-decided-on-import":     targeted("aggregate.unchecked", "expected 400 invalid_argument"),
		"attachment-claim-revalidated-at-commit": targeted("aggregate.unchecked", "must end with invalid_argument"),
		"relation-pin-records-target-form-ref":   targeted("relations.no-drift", "ExternalChange"),
		"same-kind-two-groups":                   {Profile: "full", Catalog: CatalogTwoGroups, Faults: []string{"identity.kind-only"}, Fragment: "expected 201, got 412 generation_conflict"},

		"handler-gated-attachments": targeted("aggregate.unchecked", "must be served by some and refused"),

		"deployment-change-preserves-dependents": targeted("aggregate.unchecked", "must be accepted and the others refused"),

		"deployment-delete-blocked-by-inbound-binding": targeted("delete.skip-dependents", "expected 409 dependency_in_use"),

		"artifact-upload-missing-blob":                   targeted("artifacts.list-none", "missingBlobs"),
		"artifact-digest-mismatch":                       targeted("artifacts.unverified", "expected 400 artifact_invalid"),
		"artifact-commit-idempotent":                     targeted("artifacts.recommit", "expected 200"),
		"artifact-then-bundle-apply":                     targeted("artifacts.forget", "expected 200, got 404 artifact_missing"),
		"artifact-manifest-reject-list":                  targeted("artifacts.duplicate-names", "expected 400 artifact_invalid"),
		"artifact-manifest-kind-exclusive":               targeted("artifacts.mixed-kinds", "expected 400 artifact_invalid"),
		"bundle-main-module-is-loadable":                 targeted("artifacts.any-main-module", "expected 400 artifact_invalid"),
		"bundle-ceilings-enforced":                       targeted("artifacts.over-limits", "expected 400 artifact_invalid"),
		"static-asset-spa-paths":                         targeted("assets.spa-without-index", "expected 400 invalid_argument"),
		"sqlite-migration-ledger-readiness":              targeted("migrations.diverged-ledger-accepted", "expected 409 migration_required"),
		"sqlite-migration-suffix-resumes":                targeted("migrations.fail-mid-suffix", "expected 201, got 400 invalid_argument"),
		"upload-session-bound-to-its-creating-principal": targeted("artifacts.session-shared", "expected 404 artifact_missing"),
		"artifact-digest-is-not-a-capability":            targeted("artifacts.shared-holdings", "expected a bare 404"),
		"manifest-reference-is-not-a-capability":         targeted("artifacts.shared-holdings", "expected 404 artifact_missing"),

		"form-transition-feature-advertised":       targeted("discovery.omit-feature=resource_form_transition", "resource_form_transition"),
		"form-transition-unknown-operation-is-404": targeted("transition.readback-wrong", "expected 404 resource_not_found, got 404 operation_not_found"),
		"form-transition-commits-with-exact-proof": targeted("transition.proof-wrong", "transitionProof observedSpecDigest"),
		"form-transition-replay-is-byte-identical": targeted("transition.re-render", "expected the stored receipt byte for byte"),
		"form-transition-never-re-increments":      targeted("transition.re-dispatch", "replays moved the generation"),
		"form-transition-claim-fences-lifecycle":   targeted("transition.no-claim", "expected 409 resource_busy"),
		"form-transition-undeclared-refused":       targeted("transition.any-pair", "expected 400 invalid_argument"),
		"form-transition-digest-mismatch-refused":  targeted("transition.unverified", "expected 400 invalid_argument"),
		"form-transition-request-mismatch-refused": {Profile: "full", Faults: []string{"transition.request-unchecked", "transition.unverified"}, Fragment: "must be refused"},
		"form-transition-rejection-keeps-resource": targeted("transition.reject-advances", "after the rejection expected the same ref"),

		// The checks of the v1beta1 corpus's worker, hostname, runtime and import
		// rules (docs/protocol.md#aggregate, #import, #relations, #support).
		"cron-grammar-enforced":                            targeted("cron.pattern-only", "must be answered valid false"),
		"custom-domain-hostname-canonicalized":             targeted("hostname.as-sent", "must echo the canonical"),
		"custom-domain-hostname-claim-unique":              targeted("hostname.space-scoped", "(a claim from another space of the tenant"),
		"custom-domain-hostname-claim-stops-at-the-tenant": targeted("hostname.host-wide", "a hostname only another tenant serves must be claimable"),
		"custom-domain-u-label-refused":                    targeted("hostname.idna-map", "written as the U-label"),
		"dead-letter-cycle-rejected":                       targeted("deadletter.one-hop", "(a dead-letter destination closing the three-queue cycle"),
		"queue-single-consumer-enforced":                   targeted("attachment.many-per-target", "expected 400 invalid_argument"),
		"edge-interface-contracts-advertised":              targeted("support.interface-digest=edge.kv", "at exactly schemaDigest"),
		"module-worker-runtime-contract-advertised":        targeted("support.interface-digest=worker.runtime", "provides the runtime contract"),
		"undeclared-runtime-handler-rejected":              targeted("handlers.open-vocabulary", "the runtime contract does not define must be answered valid false"),
		"import-records-its-native-identity":               targeted("import.first-claim-unrecorded", "adopting the identity the first import recorded"),
		"worker-endpoint-follows-the-active-deployment":    targeted("gate.stored-versions", "admitted against a stored version"),
		"relation-target-form-ref-verified":                {Profile: "full", Catalog: CatalogSecondDefinitions, Faults: []string{"relations.unlisted-formref"}, Fragment: "a FormRef the reference does not list)"},
		"relation-target-interface-verified":               {Profile: "full", Catalog: CatalogSecondDefinitions, Faults: []string{"relations.interface-unverified"}, Fragment: "a Definition not providing"},
	}
}
