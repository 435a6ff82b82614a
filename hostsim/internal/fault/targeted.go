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
}
