package fault

// targetedTable holds the faults that each switch off one lane rule of
// host-api.md, so the conformance check measuring that rule can be shown to
// fail (conformance.md §5). All act at StageRules.
var targetedTable = []Def{
	// identity & fences (host-api.md §6, §9)
	{Name: "fence.ignore", Stage: StageRules, Effect: "skip the generation fence comparison (and the header/body fence agreement) on apply, import, prepare, observe and delete"},
	{Name: "ifmatch.ignore", Stage: StageRules, Effect: "skip the If-Match revision comparison on apply, import, observe and delete (its syntax is still checked)"},
	{Name: "uid.ignore-expected", Stage: StageRules, Effect: "ignore expectedUid: neither a mismatching uid nor expectedUid on a create is refused"},
	{Name: "create.overwrite", Stage: StageRules, Effect: "a create (If-None-Match: *) of an existing name applies to that resource instead of answering generation_conflict"},
	{Name: "uid.reuse", Stage: StageRules, Effect: "a create mints the uid of the most recently deleted resource again"},
	{Name: "etag.weak", Stage: StageRules, Effect: "representation answers carry the weak ETag W/\"<revision>\""},
	{Name: "generation.frozen", Stage: StageRules, Effect: "a spec change moves the revision but keeps the generation"},
	{Name: "generation.on-status", Stage: StageRules, Effect: "a host-side status change (touch-status probe) moves the generation too"},
	// idempotency (host-api.md §11)
	{Name: "idempotency.no-replay", Stage: StageRules, Effect: "never replay an idempotency record: every keyed request executes afresh"},
	{Name: "idempotency.no-retire", Stage: StageRules, Effect: "replay records bound to a deleted incarnation instead of retiring them"},
	{Name: "idempotency.tenant-wide", Stage: StageRules, Effect: "key idempotency records by tenant, space and key, so principals of a tenant share them"},
	{Name: "idempotency.host-wide", Stage: StageRules, Effect: "key idempotency records by space and key only, so every tenant shares them"},
	// operations (host-api.md §10)
	{Name: "commit.skip-fences", Stage: StageRules, Effect: "an accepted (202) mutation commits without re-checking its generation and revision fences"},
	{Name: "commit.skip-identity", Stage: StageRules, Effect: "an accepted (202) mutation commits without re-checking the uid it accepted"},
	{Name: "operation.tenant-wide", Stage: StageRules, Effect: "any principal of the creating tenant may poll and cancel an Operation"},
	{Name: "operation.uncancellable", Stage: StageRules, Effect: "cancelling a pending Operation commits it instead of ending it with operation_cancelled"},
	{Name: "operation.unstable", Stage: StageRules, Effect: "a terminal Operation is re-encoded (indented) on every later poll: the same JSON value, not the same bytes"},
	// strict JSON, errors and SpaceIDs (host-api.md §3.3, §4, §7)
	{Name: "json.duplicates", Stage: StageRules, Effect: "request bodies with duplicate member names pass the I-JSON gate; the last member wins"},
	{Name: "json.unknown-members", Stage: StageRules, Effect: "request bodies are decoded leniently: members the closed schema does not declare are ignored"},
	{Name: "errors.retryable-wrong", Stage: StageRules, Effect: "every error envelope carries the opposite of its code's retryable value"},
	{Name: "space.lenient", Stage: StageRules, Effect: "/metadata/space is not checked against the SpaceID grammar (the query's space still is)"},
	// tenancy (host-api.md §3.1)
	{Name: "tenant.ignore", Stage: StageRules, Effect: "every authenticated principal is served in the first configured principal's tenant, so tenants share one plane"},
	{Name: "prepare.host-wide", Stage: StageRules, Effect: "a prepareDigest binds no tenant: any tenant may spend one minted for another"},
	// capability, import and status (host-api.md §9.3, §16, §13)
	{Name: "capability.ignore", Stage: StageRules, Effect: "accept spec changes of Forms without update and applies to revision-role resources (the host profile may still refuse the operation)"},
	{Name: "immutable.ignore", Stage: StageRules, Effect: "accept changes of immutableFields pointers"},
	{Name: "import.unchecked", Stage: StageRules, Effect: "an import skips the desiredSchema gate (the spec is only materialized)"},
	{Name: "import.no-claim", Stage: StageRules, Effect: "an import neither checks nor records a nativeId claim (the resource keeps no nativeId)"},
	{Name: "status.invent-reason", Stage: StageRules, Effect: "the Ready condition carries a reason outside the closed vocabulary"},
	// validate, prepare and headers (host-api.md §6, §10)
	{Name: "validate.invert", Stage: StageRules, Effect: "validate answers the opposite valid (diagnostics unchanged)"},
	{Name: "prepare.unbound", Stage: StageRules, Effect: "an apply accepts any prepareDigest this host minted for the tenant, whatever request it binds"},
	{Name: "prepare.no-fence", Stage: StageRules, Effect: "prepare of an existing resource without Takoform-Expected-Generation is answered as if the fence were current"},
	{Name: "headers.lenient", Stage: StageRules, Effect: "a keyed route without Idempotency-Key is served (its answer is recorded under the empty key)"},
	{Name: "support.unenforced", Stage: StageRules, Effect: "apply and import skip the support profile's operation and spec narrowing checks"},
	// FormRefs, paths, discovery and catalog (host-api.md §2, §5, §8)
	{Name: "formref.any-version", Stage: StageRules, Effect: "read, observe and delete answer a resource under any installed FormRef of its kind"},
	{Name: "formref.package-key", Stage: StageRules, Effect: "packageDigest in an exact-FormRef query is ignored instead of refused"},
	{Name: "formref.loose", Stage: StageRules, Effect: "an uninstalled FormRef resolves to the first installed version of its group and kind"},
	{Name: "path.decode-group", Stage: StageRules, Effect: "an escaped slash (%2F) splits its path segment, so a group sent as one segment is accepted"},
	{Name: "discovery.omit-feature", Stage: StageRules, Effect: "discovery omits one feature (value names it; default exact_form_ref)", Value: anyName},
	{Name: "forms.unavailable", Stage: StageRules, Effect: "forms answers every installed FormRef with activated false"},
	{Name: "definition.drift", Stage: StageRules, Effect: "form-definition serves the desiredSchema with an extra $comment member, so it differs from the installed one"},
	// deletes (host-api.md §14.6)
	{Name: "delete.revision-fenced", Stage: StageRules, Effect: "a delete compares its generation fence with the revision, so derived rendering makes it stale"},
	// identity, spaces and catalog additions
	{Name: "uid.invalid", Stage: StageRules, Effect: "a create mints a uid outside the uid grammar (it starts with \"-\")"},
	{Name: "import.echo-native", Stage: StageRules, Effect: "representations of imported resources carry the nativeId in the Ready message"},
	{Name: "space.ignore", Stage: StageRules, Effect: "read and observe find the tenant's resource of that kind and name in any space"},
	{Name: "formref.collapse", Stage: StageRules, Effect: "forms and form-definition answer every installed version of a kind with its newest one"},
	// artifacts (host-api.md §17)
	{Name: "artifacts.session-shared", Stage: StageRules, Effect: "any principal of the tenant may use another principal's upload session"},
	{Name: "artifacts.shared-holdings", Stage: StageRules, Effect: "every tenant holds every stored blob and committed manifest"},
	{Name: "artifacts.unverified", Stage: StageRules, Effect: "a blob PUT stores the bytes without checking them against the declared size and digest"},
	{Name: "artifacts.trust-declared", Stage: StageRules, Effect: "a commit does not compare declared sizes and digests with the stored bytes"},
	{Name: "artifacts.duplicate-names", Stage: StageRules, Effect: "a manifest may declare one module name or file path twice"},
	{Name: "artifacts.mixed-kinds", Stage: StageRules, Effect: "a WorkerBundle manifest may carry files beside its modules"},
	{Name: "artifacts.any-main-module", Stage: StageRules, Effect: "mainModule may name an undeclared or non-loadable module (a source map)"},
	// Form transitions (transitions.md §4, §5)
	{Name: "transition.no-claim", Stage: StageRules, Effect: "a Form transition's claim does not fence lifecycle mutations (no resource_busy)"},
	{Name: "transition.request-unchecked", Stage: StageRules, Effect: "another request under a recorded operationId is answered with that operation instead of form_transition_request_mismatch"},
	{Name: "transition.unverified", Stage: StageRules, Effect: "transitionEvidence.digest and operationId are not recomputed"},
	{Name: "transition.any-pair", Stage: StageRules, Effect: "a transition marker and FormRef pair the catalog does not declare is accepted"},
	{Name: "transition.re-render", Stage: StageRules, Effect: "a replayed Form transition POST is answered re-encoded (indented): the same JSON value, not the stored bytes"},
	{Name: "prepare.no-materialize", Stage: StageRules, Effect: "prepare echoes the spec without the members its defaults supply (the review digests stay those of the materialized spec)"},
	{Name: "transition.readback-wrong", Stage: StageRules, Effect: "the readback of an unknown Form transition operation answers operation_not_found (the Operations code) instead of resource_not_found form_transition_operation_not_found"},
	{Name: "transition.re-dispatch", Stage: StageRules, Effect: "a replayed POST of a committed Form transition applies its change again (generation and revision move once more)"},
	{Name: "transition.reject-advances", Stage: StageRules, Effect: "a backend rejection of a Form transition still moves the resource's generation"},
	{Name: "mutation.exclusive", Stage: StageRules, Effect: "mutations do not run concurrently: each holds the host for 500ms and one arriving meanwhile answers resource_busy"},
}
