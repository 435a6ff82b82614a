package takoform

// Provider codes (docs/provider-design.md#diagnostics): the closed set, namespace takoform.provider/.
const codePrefix = "takoform.provider/"

const (
	codeNotConfigured              = codePrefix + "not-configured"
	codeDiscoveryFailed            = codePrefix + "discovery-failed"
	codeLaneMismatch               = codePrefix + "lane-mismatch"
	codeHostUnreachable            = codePrefix + "host-unreachable"
	codeSpaceMissing               = codePrefix + "space-missing"
	codeStateRefMissing            = codePrefix + "state-form-ref-missing"
	codeStateRefUnsupported        = codePrefix + "state-form-ref-unsupported"
	codeVersionChangeNeedsTrans    = codePrefix + "definition-version-change-needs-transition"
	codeFieldNotInDefinition       = codePrefix + "field-not-in-recorded-definition"
	codeDesiredInvalid             = codePrefix + "desired-invalid"
	codeEnvNameDuplicate           = codePrefix + "environment-name-duplicate"
	codeWeightSumInvalid           = codePrefix + "weight-sum-invalid"
	codeRevisionOwnerMissing       = codePrefix + "revision-owner-missing"
	codeRevisionOwnerConflict      = codePrefix + "revision-owner-conflict"
	codeRevisionNameUnresolved     = codePrefix + "revision-name-unresolved"
	codeImmutableRevisionSameName  = codePrefix + "immutable-revision-same-name"
	codeBundleConflict             = codePrefix + "bundle-conflict"
	codeBundleUploadFailed         = codePrefix + "bundle-upload-failed"
	codeImportIDInvalid            = codePrefix + "import-id-invalid"
	codeUIDMismatch                = codePrefix + "uid-mismatch"
	codeFormMovedOutside           = codePrefix + "form-moved-outside-configuration"
	codeRelationTargetChanged      = codePrefix + "relation-target-changed"
	codeHostResponseInvalid        = codePrefix + "host-response-invalid"
	codeOutputContractViolated     = codePrefix + "output-contract-violated"
	codeOperationResumeFailed      = codePrefix + "operation-resume-failed"
	codeHostSupportUnreadable      = codePrefix + "host-support-unreadable"
	codeHostNoForm                 = codePrefix + "host-does-not-support-form"
	codeHostNoOperation            = codePrefix + "host-does-not-support-operation"
	codeHostNoInterface            = codePrefix + "host-does-not-support-interface"
	codeHostNoBinding              = codePrefix + "host-does-not-support-binding"
	codeHostNoValue                = codePrefix + "host-does-not-support-value"
	codeHostLimitExceeded          = codePrefix + "host-limit-exceeded"
	codeHostNoTransition           = codePrefix + "host-does-not-support-transition"
	codeFormTransitionInvalid      = codePrefix + "form-transition-invalid"
	codeFormTransitionNotApplic    = codePrefix + "form-transition-not-applicable"
	codeFormTransitionWithChanges  = codePrefix + "form-transition-with-changes"
	codeFormTransitionIndeterminat = codePrefix + "form-transition-indeterminate"
	codeFormTransitionRejected     = codePrefix + "form-transition-rejected"
	codeInternal                   = codePrefix + "internal"
)

// ProviderCodes is the closed list, in the order of docs/provider-design.md#diagnostics.
var ProviderCodes = []string{
	codeNotConfigured, codeDiscoveryFailed, codeLaneMismatch, codeHostUnreachable, codeSpaceMissing, codeStateRefMissing, codeStateRefUnsupported,
	codeVersionChangeNeedsTrans, codeFieldNotInDefinition, codeDesiredInvalid, codeEnvNameDuplicate,
	codeWeightSumInvalid, codeRevisionOwnerMissing, codeRevisionOwnerConflict, codeRevisionNameUnresolved,
	codeImmutableRevisionSameName, codeBundleConflict, codeBundleUploadFailed, codeImportIDInvalid,
	codeUIDMismatch, codeFormMovedOutside, codeRelationTargetChanged, codeHostResponseInvalid, codeOutputContractViolated,
	codeOperationResumeFailed, codeHostSupportUnreadable, codeHostNoForm, codeHostNoOperation,
	codeHostNoInterface, codeHostNoBinding, codeHostNoValue, codeHostLimitExceeded, codeHostNoTransition,
	codeFormTransitionInvalid, codeFormTransitionNotApplic, codeFormTransitionWithChanges,
	codeFormTransitionIndeterminat, codeFormTransitionRejected, codeInternal,
}
