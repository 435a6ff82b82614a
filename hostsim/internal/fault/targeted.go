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
}
