package fault

import "github.com/takokit/takokit/hostsim/internal/decide"

// Every fault hostsim knows, one declared value each. The core faults come
// first, then the ones that each switch off one lane rule so a conformance
// check can be shown to fail. To add a fault, declare its value here, list it
// in Table, and put one point line where it acts (docs/protocol.md#faults).

// Table lists every fault, in the order profiles and error messages name them.
// It is built from the declared values; a test fails when a declared Rule is
// not listed here or never fires in the lane tests.
var Table = []*Rule{
	// core
	OutputsOmit,
	OutputsWrongType,
	OutputsExtra,
	OutputsEmptyWhenUndeclared,
	OutputsDropStatus,
	OutputsDropAll,
	OutputsNullMember,
	OutputsPatternViolation,
	OutputsOutOfRange,
	ApplyAcceptUnfinished,
	ResponseDropAfterCommit,
	ResponseDropReplay,
	StoreFail,
	StoreReadFail,
	Latency,
	AuthAcceptAny,
	InjectedError,
	RelationsIgnoreMissing,
	RelationsNoDrift,
	RelationsNoRepin,
	RenderingFrozen,
	BindingsUnchecked,
	AggregateUnchecked,
	DeleteSkipDependents,
	EndpointReassign,
	EndpointSharedAddress,
	ArtifactsNoExportScan,
	ArtifactsListNone,
	ArtifactsRecommit,
	ArtifactsForget,
	TransitionCrash,
	TransitionExit,
	TransitionReject,
	TransitionHang,
	Panic,
	// targeted
	FenceIgnore,
	FenceRefusalWrites,
	IfMatchIgnore,
	UIDIgnoreExpected,
	CreateOverwrite,
	UIDReuse,
	ETagWeak,
	GenerationFrozen,
	GenerationOnStatus,
	IdempotencyNoReplay,
	IdempotencyNoRetire,
	IdempotencyTenantWide,
	IdempotencyHostWide,
	CommitSkipFences,
	CommitSkipIdentity,
	OperationTenantWide,
	OperationUncancellable,
	OperationUnstable,
	JSONDuplicates,
	JSONUnknownMembers,
	ErrorsRetryableWrong,
	ErrorsRequestIDFixed,
	SpaceLenient,
	TenantIgnore,
	PrepareHostWide,
	CapabilityIgnore,
	ImmutableIgnore,
	ImportUnchecked,
	ImportNoClaim,
	StatusInventReason,
	ValidateInvert,
	PrepareUnbound,
	PrepareNoFence,
	HeadersLenient,
	SupportUnenforced,
	SupportBindingDigest,
	SupportInterfaceDigest,
	SupportRefuseCode,
	SupportOmitProfile,
	SupportCommercial,
	SupportCompatDate,
	SupportCompatFlags,
	FormRefAnyVersion,
	FormRefPackageKey,
	FormRefLoose,
	PathDecodeGroup,
	DiscoveryOmitFeature,
	FormsUnavailable,
	DefinitionDrift,
	DeleteRevisionFenced,
	UIDInvalid,
	ImportEchoNative,
	SpaceIgnore,
	FormRefCollapse,
	ArtifactsSessionShared,
	ArtifactsSharedHoldings,
	ArtifactsUnverified,
	ArtifactsTrustDeclared,
	ArtifactsDuplicateNames,
	ArtifactsMixedKinds,
	ArtifactsAnyMainModule,
	TransitionNoClaim,
	TransitionRequestUnchecked,
	TransitionUnverified,
	TransitionAnyPair,
	TransitionReRender,
	PrepareNoMaterialize,
	TransitionReadbackWrong,
	TransitionReDispatch,
	TransitionRejectAdvances,
	TransitionProofWrong,
	IdentityKindOnly,
	MutationExclusive,
	// the v1beta1 corpus's worker, hostname, runtime and import rules
	CronPatternOnly,
	HostnameAsSent,
	HostnameIDNAMap,
	HostnameSpaceScoped,
	HostnameHostWide,
	HandlersOpenVocabulary,
	DeadLetterOneHop,
	AttachmentManyPerTarget,
	GateStoredVersions,
	ImportFirstClaimUnrecorded,
	RelationsUnlistedFormRef,
	RelationsInterfaceUnverified,
	// v1beta1 static assets and bundle ceilings (docs/protocol.md#static-assets, #artifacts)
	AssetsSPAWithoutIndex,
	ArtifactsOverLimits,
	// SQLite migration history
	MigrationsFailMidSuffix,
	MigrationsDivergedLedgerAccepted,
	MigrationsDBFail,
}

// Core faults.
var (
	OutputsOmit                = &Rule{Name: "outputs.omit", Stage: StageRender, Effect: "status.outputs lacks one declared member (value names it; default: the first declared)", Value: anyName}
	OutputsWrongType           = &Rule{Name: "outputs.wrong-type", Stage: StageRender, Effect: "one declared output is served with another JSON type (value names it; default: the first declared)", Value: anyName}
	OutputsExtra               = &Rule{Name: "outputs.extra", Stage: StageRender, Effect: "status.outputs carries an undeclared member (value names it; default \"unexpected\")", Value: anyName}
	OutputsEmptyWhenUndeclared = &Rule{Name: "outputs.empty-when-undeclared", Stage: StageRender, Effect: "status.outputs: {} on a Form that declares no outputs"}
	OutputsDropStatus          = &Rule{Name: "outputs.drop-status", Stage: StageRender, Effect: "a representation of a Form that declares outputs is served without status (so without conditions and outputs)"}
	OutputsDropAll             = &Rule{Name: "outputs.drop-all", Stage: StageRender, Effect: "a representation of a Form that declares outputs is served with status but without status.outputs"}
	OutputsNullMember          = &Rule{Name: "outputs.null-member", Stage: StageRender, Effect: "one declared output is served as JSON null (value names it; default: the first declared)", Value: anyName}
	OutputsPatternViolation    = &Rule{Name: "outputs.pattern-violation", Stage: StageRender, Effect: "one declared string output with a pattern is served as a string its pattern refuses (value names it; default: the first such output)", Value: anyName}
	OutputsOutOfRange          = &Rule{Name: "outputs.out-of-range", Stage: StageRender, Effect: "one declared integer output with a bound is served one past its maximum (or below its minimum) (value names it; default: the first such output)", Value: anyName}
	ApplyAcceptUnfinished      = &Rule{Name: "apply.accept-unfinished", Stage: StageMutation, Effect: "a mutation answers 202 and its operation stays running"}
	StoreFail                  = &Rule{Name: "store.fail", Stage: StageMutation, Effect: "the matching request's value-th data statement (counting over all its writes; default 1) fails as a failing disk would; the request answers internal_error 500 and a write that fails rolls back (docs/protocol.md#faults)", Value: statementIndex}
	StoreReadFail              = &Rule{Name: "store.read-fail", Stage: StageMutation, Effect: "the matching request's value-th read inside its writes (a query, or a lookup of a resource or its pins that hostsim's in-memory mirror answers; counting over all its writes; default 1) fails as a failing disk would; the request answers internal_error 500 and a write that fails rolls back (docs/protocol.md#faults)", Value: statementIndex}
	ResponseDropAfterCommit    = &Rule{Name: "response.drop-after-commit", Stage: StageResponse, Effect: "the mutation commits, then the connection is dropped without an answer"}
	ResponseDropReplay         = &Rule{Name: "response.drop-replay", Stage: StageResponse, Effect: "a keyed resend finds its recorded answer, and the connection is dropped without it (after response.drop-after-commit: a client that resends once never hears back)"}
	Latency                    = &Rule{Name: "latency", Stage: StageRequest, Effect: "adds value (a duration) to every matching request", Value: duration, ValueRequired: true}
	AuthAcceptAny              = &Rule{Name: "auth.accept-any", Stage: StageRequest, Effect: "a request without a valid credential is served as the first configured principal"}
	InjectedError              = &Rule{Name: "error", Stage: StageRequest, Effect: "answers value (an error code) with the code's status", Value: errorCode, ValueRequired: true}

	RelationsIgnoreMissing = &Rule{Name: "relations.ignore-missing", Stage: StageRules, Effect: "store references whose target does not exist (resource_not_found is skipped, nothing is pinned)"}
	RelationsNoDrift       = &Rule{Name: "relations.no-drift", Stage: StageRules, Effect: "render no drift for replaced or missing relation targets"}
	RelationsNoRepin       = &Rule{Name: "relations.no-repin", Stage: StageRules, Effect: "keep the stored pins on an accepted apply or import instead of re-pinning"}
	RenderingFrozen        = &Rule{Name: "rendering.frozen", Stage: StageRules, Effect: "never re-render dependents after a mutation (no derived revision moves)"}
	BindingsUnchecked      = &Rule{Name: "bindings.unchecked", Stage: StageRules, Effect: "skip the binding checks of a relation (docs/protocol.md#relations)"}
	AggregateUnchecked     = &Rule{Name: "aggregate.unchecked", Stage: StageRules, Effect: "skip the deployment rules, attachment gate, reverse gate, one-per-target claims, hostname claims and environment namespace"}
	DeleteSkipDependents   = &Rule{Name: "delete.skip-dependents", Stage: StageRules, Effect: "delete targets that other resources pin and deployments that serve dependents"}
	EndpointReassign       = &Rule{Name: "endpoint.reassign", Stage: StageRules, Effect: "assign a new endpoint address on every apply (the address follows the generation)"}
	EndpointSharedAddress  = &Rule{Name: "endpoint.shared-address", Stage: StageRules, Effect: "assign every resource of a Form with outputs the same address (it follows the kind, not the uid)"}
	ArtifactsNoExportScan  = &Rule{Name: "artifacts.no-export-scan", Stage: StageRules, Effect: "accept any declared handler without scanning the bundle's main module"}
	ArtifactsListNone      = &Rule{Name: "artifacts.list-none", Stage: StageRules, Effect: "answer upload start with missingBlobs []"}
	ArtifactsRecommit      = &Rule{Name: "artifacts.recommit", Stage: StageRules, Effect: "answer every commit 201, also for an upload already committed"}
	ArtifactsForget        = &Rule{Name: "artifacts.forget", Stage: StageRules, Effect: "drop committed manifests: manifest reads and bundle resolution answer artifact_missing"}

	// Form transitions (docs/protocol.md#transitions), acted on by internal/transition.
	TransitionCrash  = &Rule{Name: "transition.crash", Stage: StageTransition, Effect: "aborts a Form transition right after the durable write of point value (A-E); the client sees a dropped connection", Value: crashPoint, ValueRequired: true}
	TransitionExit   = &Rule{Name: "transition.exit", Stage: StageTransition, Effect: "the process exits right after the durable write of point value (A-E); needs --db FILE (without one it acts as transition.crash)", Value: crashPoint, ValueRequired: true}
	TransitionReject = &Rule{Name: "transition.reject", Stage: StageTransition, Effect: "the backend definitively rejects matching Form transitions; failureCode = value (default backend_rejected)", Value: failureCode}
	TransitionHang   = &Rule{Name: "transition.hang", Stage: StageTransition, Effect: "right after the durable write of point value (A-E) the request logs \"hostsim: holding Form transition … at point X\" and answers nothing until its client goes away (a test SIGKILLs the process meanwhile); the firing is counted in that write", Value: crashPoint, ValueRequired: true}
	// Panic makes a request panic, to prove the recover middleware: it is a
	// fault, not a bug, and the answer is internal_error 500 with the stack logged.
	Panic = &Rule{Name: "panic", Stage: StageRequest, Effect: "the matching request panics in its handler (the recover middleware answers internal_error 500 and logs the stack)"}
)

// FixedRequestID is the requestId errors.request-id-fixed writes in every error
// envelope: valid in form, the same for every answer.
const FixedRequestID = "req_00000000000000000000"

// Targeted faults: each switches off one lane rule.
var (

	// identity & fences (docs/protocol.md#identity, #fences)
	FenceIgnore        = &Rule{Name: "fence.ignore", Stage: StageRules, Effect: "skip the generation fence comparison (and the header/body fence agreement) on apply, import, prepare, observe, delete and a Form transition's claim", Decision: decide.FenceIgnore}
	FenceRefusalWrites = &Rule{Name: "fence.refusal-writes", Stage: StageRules, Effect: "an observe refused for a stale generation fence is answered generation_conflict as ever, but the resource's revision moves by one"}
	IfMatchIgnore      = &Rule{Name: "ifmatch.ignore", Stage: StageRules, Effect: "skip the If-Match revision comparison on apply, import, observe, delete and a Form transition's claim (its syntax is still checked)", Decision: decide.IfMatchIgnore}
	UIDIgnoreExpected  = &Rule{Name: "uid.ignore-expected", Stage: StageRules, Effect: "ignore expectedUid: neither a mismatching uid nor expectedUid on a create is refused", Decision: decide.UIDIgnoreExpected}
	CreateOverwrite    = &Rule{Name: "create.overwrite", Stage: StageRules, Effect: "a create (If-None-Match: *) of an existing name applies to that resource instead of answering generation_conflict", Decision: decide.CreateOverwrite}
	UIDReuse           = &Rule{Name: "uid.reuse", Stage: StageRules, Effect: "a create mints the uid of the most recently deleted resource again", Decision: decide.UIDReuse}
	ETagWeak           = &Rule{Name: "etag.weak", Stage: StageRules, Effect: "representation answers carry the weak ETag W/\"<revision>\""}
	GenerationFrozen   = &Rule{Name: "generation.frozen", Stage: StageRules, Effect: "a spec change moves the revision but keeps the generation", Decision: decide.GenerationFrozen}
	GenerationOnStatus = &Rule{Name: "generation.on-status", Stage: StageRules, Effect: "a host-side status change (touch-status probe) moves the generation too", Decision: decide.GenerationOnStatus}

	// idempotency (docs/protocol.md#idempotency)
	IdempotencyNoReplay   = &Rule{Name: "idempotency.no-replay", Stage: StageRules, Effect: "never replay an idempotency record: every keyed request executes afresh"}
	IdempotencyNoRetire   = &Rule{Name: "idempotency.no-retire", Stage: StageRules, Effect: "replay records bound to a deleted incarnation instead of retiring them"}
	IdempotencyTenantWide = &Rule{Name: "idempotency.tenant-wide", Stage: StageRules, Effect: "key idempotency records by tenant, space and key, so principals of a tenant share them"}
	IdempotencyHostWide   = &Rule{Name: "idempotency.host-wide", Stage: StageRules, Effect: "key idempotency records by space and key only, so every tenant shares them"}

	// operations (docs/protocol.md#operations)
	CommitSkipFences       = &Rule{Name: "commit.skip-fences", Stage: StageRules, Effect: "an accepted (202) mutation commits without re-checking its generation and revision fences", Decision: decide.CommitSkipFences}
	CommitSkipIdentity     = &Rule{Name: "commit.skip-identity", Stage: StageRules, Effect: "an accepted (202) mutation commits without re-checking the uid it accepted", Decision: decide.CommitSkipIdentity}
	OperationTenantWide    = &Rule{Name: "operation.tenant-wide", Stage: StageRules, Effect: "any principal of the creating tenant may poll and cancel an Operation", Decision: decide.OperationTenantWide}
	OperationUncancellable = &Rule{Name: "operation.uncancellable", Stage: StageRules, Effect: "cancelling a pending Operation commits it instead of ending it with operation_cancelled"}
	OperationUnstable      = &Rule{Name: "operation.unstable", Stage: StageRules, Effect: "a terminal Operation is re-encoded (indented) on every later poll: the same JSON value, not the same bytes"}

	// strict JSON, errors and SpaceIDs (docs/protocol.md#json, #errors, #spaces)
	JSONDuplicates       = &Rule{Name: "json.duplicates", Stage: StageRules, Effect: "request bodies with duplicate member names pass the I-JSON gate; the last member wins"}
	JSONUnknownMembers   = &Rule{Name: "json.unknown-members", Stage: StageRules, Effect: "request bodies are decoded leniently: members the closed schema does not declare are ignored"}
	ErrorsRetryableWrong = &Rule{Name: "errors.retryable-wrong", Stage: StageRules, Effect: "every error envelope carries the opposite of its code's retryable value"}
	ErrorsRequestIDFixed = &Rule{Name: "errors.request-id-fixed", Stage: StageRules, Effect: "every error envelope carries one and the same requestId (" + FixedRequestID + ") instead of its request's"}
	SpaceLenient         = &Rule{Name: "space.lenient", Stage: StageRules, Effect: "/metadata/space is not checked against the SpaceID grammar (the query's space still is)"}

	// tenancy (docs/protocol.md#auth)
	TenantIgnore    = &Rule{Name: "tenant.ignore", Stage: StageRules, Effect: "every authenticated principal is served in the first configured principal's tenant, so tenants share one plane"}
	PrepareHostWide = &Rule{Name: "prepare.host-wide", Stage: StageRules, Effect: "a prepareDigest binds no tenant: any tenant may spend one minted for another", Decision: decide.PrepareHostWide}

	// capability, import and status (docs/protocol.md#capabilities, #import, #status)
	CapabilityIgnore   = &Rule{Name: "capability.ignore", Stage: StageRules, Effect: "accept spec changes of Forms without update and applies to revision-role resources (the host profile may still refuse the operation)", Decision: decide.CapabilityIgnore}
	ImmutableIgnore    = &Rule{Name: "immutable.ignore", Stage: StageRules, Effect: "accept changes of immutableFields pointers", Decision: decide.ImmutableIgnore}
	ImportUnchecked    = &Rule{Name: "import.unchecked", Stage: StageRules, Effect: "an import skips the desiredSchema gate (the spec is only materialized)"}
	ImportNoClaim      = &Rule{Name: "import.no-claim", Stage: StageRules, Effect: "an import neither checks nor records a nativeId claim (the resource keeps no nativeId)"}
	StatusInventReason = &Rule{Name: "status.invent-reason", Stage: StageRules, Effect: "the Ready condition carries a reason outside the closed vocabulary"}

	// validate, prepare and headers (docs/protocol.md#prepare, #headers)
	ValidateInvert    = &Rule{Name: "validate.invert", Stage: StageRules, Effect: "validate answers the opposite valid (diagnostics unchanged)"}
	PrepareUnbound    = &Rule{Name: "prepare.unbound", Stage: StageRules, Effect: "an apply accepts any prepareDigest this host minted for the tenant, whatever request it binds", Decision: decide.PrepareUnbound}
	PrepareNoFence    = &Rule{Name: "prepare.no-fence", Stage: StageRules, Effect: "prepare of an existing resource without Takoform-Expected-Generation is answered as if the fence were current", Decision: decide.PrepareNoFence}
	HeadersLenient    = &Rule{Name: "headers.lenient", Stage: StageRules, Effect: "a keyed route without Idempotency-Key is served (its answer is recorded under the empty key)"}
	SupportUnenforced = &Rule{Name: "support.unenforced", Stage: StageRules, Effect: "apply and import skip the support profile's operation and spec narrowing checks"}

	// support profiles (docs/protocol.md#support)
	SupportBindingDigest   = &Rule{Name: "support.binding-digest", Stage: StageRules, Effect: "a binding support route answers the contract at another schemaDigest (value names the binding; default: every binding)", Value: anyName}
	SupportInterfaceDigest = &Rule{Name: "support.interface-digest", Stage: StageRules, Effect: "an interface support route answers the contract at another schemaDigest (value names the interface; default: every interface)", Value: anyName}
	SupportRefuseCode      = &Rule{Name: "support.refuse-code", Stage: StageRules, Effect: "the refusal codes of the support routes are swapped: an unknown Form line is resource_not_found, an unknown contract form_unknown"}
	SupportOmitProfile     = &Rule{Name: "support.omit-profile", Stage: StageRules, Effect: "one installed Form's support route answers 404 form_unknown while the Form stays installed and listed (value names its kind; default: the first installed Form)", Value: anyName}
	SupportCommercial      = &Rule{Name: "support.commercial", Stage: StageRules, Effect: "every support profile carries a \"price\" member"}
	SupportCompatDate      = &Rule{Name: "support.compatibility-date", Stage: StageRules, Effect: "a FormSupport profile advertises a supportedRanges.compatibilityDate range (value names the kind; default: every Form)", Value: anyName}
	SupportCompatFlags     = &Rule{Name: "support.compatibility-flags", Stage: StageRules, Effect: "a FormSupport profile advertises a supportedEnums.compatibilityFlags enum (value names the kind; default: every Form)", Value: anyName}

	// FormRefs, paths, discovery and catalog (docs/protocol.md#identity, #routes, #discovery)
	FormRefAnyVersion    = &Rule{Name: "formref.any-version", Stage: StageRules, Effect: "read, observe and delete answer a resource under any installed FormRef of its kind", Decision: decide.FormRefAnyVersion}
	FormRefPackageKey    = &Rule{Name: "formref.package-key", Stage: StageRules, Effect: "packageDigest in an exact-FormRef query is ignored instead of refused"}
	FormRefLoose         = &Rule{Name: "formref.loose", Stage: StageRules, Effect: "an uninstalled FormRef resolves to the first installed version of its group and kind"}
	PathDecodeGroup      = &Rule{Name: "path.decode-group", Stage: StageRules, Effect: "an escaped slash (%2F) splits its path segment, so a group sent as one segment is accepted"}
	DiscoveryOmitFeature = &Rule{Name: "discovery.omit-feature", Stage: StageRules, Effect: "discovery omits one feature (value names it; default exact_form_ref)", Value: anyName}
	FormsUnavailable     = &Rule{Name: "forms.unavailable", Stage: StageRules, Effect: "forms answers every installed FormRef with activated false"}
	DefinitionDrift      = &Rule{Name: "definition.drift", Stage: StageRules, Effect: "form-definition serves the desiredSchema with an extra $comment member, so it differs from the installed one"}

	// deletes (docs/protocol.md#fences)
	DeleteRevisionFenced = &Rule{Name: "delete.revision-fenced", Stage: StageRules, Effect: "a delete compares its generation fence with the revision, so derived rendering makes it stale", Decision: decide.DeleteRevisionFenced}

	// identity, spaces and catalog additions
	UIDInvalid       = &Rule{Name: "uid.invalid", Stage: StageRules, Effect: "a create mints a uid outside the uid grammar (it starts with \"-\")", Decision: decide.UIDInvalid}
	ImportEchoNative = &Rule{Name: "import.echo-native", Stage: StageRules, Effect: "representations of imported resources carry the nativeId in the Ready message"}
	SpaceIgnore      = &Rule{Name: "space.ignore", Stage: StageRules, Effect: "read and observe find the tenant's resource of that kind and name in any space"}
	FormRefCollapse  = &Rule{Name: "formref.collapse", Stage: StageRules, Effect: "forms and form-definition answer every installed version of a kind with its newest one"}

	// artifacts (docs/protocol.md#artifacts)
	ArtifactsSessionShared  = &Rule{Name: "artifacts.session-shared", Stage: StageRules, Effect: "any principal of the tenant may use another principal's upload session"}
	ArtifactsSharedHoldings = &Rule{Name: "artifacts.shared-holdings", Stage: StageRules, Effect: "every tenant holds every stored blob and committed manifest"}
	ArtifactsUnverified     = &Rule{Name: "artifacts.unverified", Stage: StageRules, Effect: "a blob PUT stores the bytes without checking them against the declared size and digest"}
	ArtifactsTrustDeclared  = &Rule{Name: "artifacts.trust-declared", Stage: StageRules, Effect: "a commit does not compare declared sizes and digests with the stored bytes"}
	ArtifactsDuplicateNames = &Rule{Name: "artifacts.duplicate-names", Stage: StageRules, Effect: "a manifest may declare one module name or file path twice"}
	ArtifactsMixedKinds     = &Rule{Name: "artifacts.mixed-kinds", Stage: StageRules, Effect: "a manifest may carry another kind's member (files beside a WorkerBundle's modules, modules or mainModule beside files); the extra member is ignored"}
	ArtifactsAnyMainModule  = &Rule{Name: "artifacts.any-main-module", Stage: StageRules, Effect: "mainModule may name an undeclared or non-loadable module (a source map)"}

	// Form transitions (docs/protocol.md#transitions)
	TransitionNoClaim          = &Rule{Name: "transition.no-claim", Stage: StageRules, Effect: "a Form transition's claim does not fence lifecycle mutations (no resource_busy)", Decision: decide.TransitionNoClaim}
	TransitionRequestUnchecked = &Rule{Name: "transition.request-unchecked", Stage: StageRules, Effect: "another request under a recorded operationId is answered with that operation instead of form_transition_request_mismatch"}
	TransitionUnverified       = &Rule{Name: "transition.unverified", Stage: StageRules, Effect: "transitionEvidence.digest and operationId are not recomputed"}
	TransitionAnyPair          = &Rule{Name: "transition.any-pair", Stage: StageRules, Effect: "a transition marker and FormRef pair the catalog does not declare is accepted"}
	TransitionReRender         = &Rule{Name: "transition.re-render", Stage: StageRules, Effect: "a replayed Form transition POST is answered re-encoded (indented): the same JSON value, not the stored bytes"}
	PrepareNoMaterialize       = &Rule{Name: "prepare.no-materialize", Stage: StageRules, Effect: "prepare echoes the spec without the members its defaults supply (the review digests stay those of the materialized spec)"}
	TransitionReadbackWrong    = &Rule{Name: "transition.readback-wrong", Stage: StageRules, Effect: "the readback of an unknown Form transition operation answers operation_not_found (the Operations code) instead of resource_not_found form_transition_operation_not_found"}
	TransitionReDispatch       = &Rule{Name: "transition.re-dispatch", Stage: StageRules, Effect: "a replayed POST of a committed Form transition applies its change again (generation and revision move once more)"}
	TransitionRejectAdvances   = &Rule{Name: "transition.reject-advances", Stage: StageRules, Effect: "a backend rejection of a Form transition still moves the resource's generation"}
	TransitionProofWrong       = &Rule{Name: "transition.proof-wrong", Stage: StageRules, Effect: "a committed Form transition's transitionProof carries one wrong member while the transition commits (value: observedSpecDigest (default), uid, generation, nativeIdentityDigest or transitionEvidenceDigest)", Value: proofMember}
	IdentityKindOnly           = &Rule{Name: "identity.kind-only", Stage: StageRules, Effect: "apply and import find the resource by kind and name alone: a kind of the same name in another group holds the name"}
	MutationExclusive          = &Rule{Name: "mutation.exclusive", Stage: StageRules, Effect: "mutations do not run concurrently: each holds the host for 500ms and one arriving meanwhile answers resource_busy"}
)

// Targeted faults of the v1beta1 corpus's worker, hostname, runtime and import rules
// (docs/protocol.md#aggregate, #import, #relations): each switches off one rule a
// conformance check measures.
var (
	CronPatternOnly              = &Rule{Name: "cron.pattern-only", Stage: StageRules, Effect: "a cron field is held to its schema pattern only: the grammar parse is skipped, so shapes naming no schedule (0 24 * * *) pass the spec gate", Decision: decide.CronPatternOnly}
	HostnameAsSent               = &Rule{Name: "hostname.as-sent", Stage: StageRules, Effect: "hostname fields are not canonicalized: upper case and the trailing root dot are stored, echoed and digested as sent (claims still compare canonically)", Decision: decide.HostnameAsSent}
	HostnameIDNAMap              = &Rule{Name: "hostname.idna-map", Stage: StageRules, Effect: "a hostname written as a U-label is mapped to its A-label before the spec gate instead of being refused", Decision: decide.HostnameIDNAMap}
	HostnameSpaceScoped          = &Rule{Name: "hostname.space-scoped", Stage: StageRules, Effect: "hostname claims are compared within the space only, so another space of the tenant may claim a served hostname"}
	HostnameHostWide             = &Rule{Name: "hostname.host-wide", Stage: StageRules, Effect: "hostname claims are compared across every tenant: a hostname another tenant serves is refused, naming that tenant's holder"}
	HandlersOpenVocabulary       = &Rule{Name: "handlers.open-vocabulary", Stage: StageRules, Effect: "the spec gate admits handler names outside the closed enum of a revision Form's handler set (the runtime contract's vocabulary)", Decision: decide.HandlersOpenVocabulary}
	DeadLetterOneHop             = &Rule{Name: "deadletter.one-hop", Stage: StageRules, Effect: "the dead-letter cycle scan follows one edge: only a destination that is the queue itself, or whose own consumer points straight back, is refused"}
	AttachmentManyPerTarget      = &Rule{Name: "attachment.many-per-target", Stage: StageRules, Effect: "the one-per-target claims are skipped: a second endpoint of a worker or consumer of a queue is stored"}
	GateStoredVersions           = &Rule{Name: "gate.stored-versions", Stage: StageRules, Effect: "the attachment gate also admits a handler that a stored version of the worker declares, though its active deployment does not weight it"}
	ImportFirstClaimUnrecorded   = &Rule{Name: "import.first-claim-unrecorded", Stage: StageRules, Effect: "the first import onto a resource this host created records no nativeId claim (the claim is still checked)"}
	RelationsUnlistedFormRef     = &Rule{Name: "relations.unlisted-formref", Stage: StageRules, Effect: "a reference's target recorded under a FormRef the reference does not list is pinned instead of refused"}
	RelationsInterfaceUnverified = &Rule{Name: "relations.interface-unverified", Stage: StageRules, Effect: "a reference's target whose Definition does not provide the required Interface is pinned instead of refused"}
)

// v1beta1 static assets and bundle ceilings (docs/protocol.md#static-assets,
// #artifacts, #support).
var (
	AssetsSPAWithoutIndex = &Rule{Name: "assets.spa-without-index", Stage: StageRules, Effect: "a WorkerVersion whose assets.notFoundHandling is single_page_application is accepted although its StaticAssetBundle declares no index.html"}
	ArtifactsOverLimits   = &Rule{Name: "artifacts.over-limits", Stage: StageRules, Effect: "a manifest over the published maximumBundleFiles or maximumBundleBytes is accepted at upload start, commit and apply"}
)

// SQLite migration history (docs/protocol.md#migrations), acted on where a
// migration application proves its ledger prefix and runs its suffix.
var (
	MigrationsFailMidSuffix          = &Rule{Name: "migrations.fail-mid-suffix", Stage: StageMutation, Effect: "the second unapplied file of a migration application fails as if its SQL errored: it rolls back alone, the files before it stay applied, and the application is refused naming the file"}
	MigrationsDivergedLedgerAccepted = &Rule{Name: "migrations.diverged-ledger-accepted", Stage: StageRules, Effect: "a migration application skips the ledger prefix proof: a set that drops, moves or rewrites an applied file is accepted (no migration_required) and its files past the ledger's length run"}
	MigrationsDBFail                 = &Rule{Name: "migrations.db-fail", Stage: StageMutation, Effect: "the matching request's value-th step on a migration application's own database (reading its ledger; each file's begin, SQL, ledger row and commit; default 1) fails as a failing disk would: the file in flight rolls back alone, the files before it stay applied, the request answers internal_error 500 and nothing of the application is stored; applying again resumes after the ledger (docs/protocol.md#migrations)", Value: statementIndex}
)
