package takoform

import "github.com/takokit/takokit/catalog/wire"

// repairs holds exactly one repair per published host code (docs/provider-design.md#diagnostics).
var repairs = map[wire.Code]string{
	wire.CodeInvalidArgument:       "The host refused the request as written. Fix the value at the pointer its message names, then apply again.",
	wire.CodeUnauthenticated:       "The token is missing or unknown to the host. Check token in the provider block or TAKOFORM_TOKEN.",
	wire.CodePermissionDenied:      "The credential may not do this. Use a token that is allowed to.",
	wire.CodeFormUnknown:           "The host does not install this exact Form. Use a host that does (the plan-time support check names which versions it offers).",
	wire.CodeFormNotInstalled:      "The host knows the Form but cannot serve it now. Retry later or ask the host operator.",
	wire.CodeFormUnavailable:       "The host knows the Form but cannot serve it now. Retry later or ask the host operator.",
	wire.CodeFormIdentityConflict:  "The request names one Form identity and the host holds another. Check the recorded form_* attributes in state.",
	wire.CodeResourceNotFound:      "The resource or a referenced target does not exist in this space. Create the target first or fix the name.",
	wire.CodeResourceBusy:          "This is transient and the provider already retried. Apply again later.",
	wire.CodeImportConflict:        "Another resource already claims that native object. Release it there first or pick another.",
	wire.CodePolicyDenied:          "Host policy forbids this. Change the policy on the host.",
	wire.CodeBackendUnavailable:    "This is transient and the provider already retried. Apply again later.",
	wire.CodeInternalError:         "This is a host fault. Report it to the host operator with the Request id.",
	wire.CodeRateLimited:           "This is transient and the provider already retried. Apply again later.",
	wire.CodeDeadlineExceeded:      "This is transient and the provider already retried. Apply again later.",
	wire.CodeOperationCancelled:    "The operation was cancelled on the host. Apply again.",
	wire.CodeOperationNotFound:     "The operation is no longer addressable on the host. Refresh to see the resource as it is.",
	wire.CodeDependencyInUse:       "Something still points at this resource. Remove or repoint its dependents first: attachments and inbound callers, then the deployment, then versions, then bundles, then the worker.",
	wire.CodeDeletionProtected:     "Host policy forbids this. Change the policy on the host.",
	wire.CodeArtifactMissing:       "The manifest or a blob is not held by your tenant. Upload it (author the bundle from local files).",
	wire.CodeArtifactInvalid:       "The bundle breaks the artifact rules. Fix module names, media types or sizes.",
	wire.CodeUnsupportedCapability: "The host lacks a capability this needs (handler, binding or endpoint assignment). See the host message, or use another host.",
	wire.CodeMigrationRequired:     "The resource needs a Form transition before this change. Set form_transition to a declared marker first.",
	wire.CodeUIDMismatch:           "The name now belongs to another incarnation on the host. Either `tofu state rm` the resource and import the new object, restore the original object, or delete the host-side replacement and apply again.",
	wire.CodeRevisionConflict:      "Someone else changed the resource. Refresh and apply again.",
	wire.CodeGenerationConflict:    "Someone else changed the resource. Refresh and apply again.",
}

// repairFor refines the table by hostCode where docs/provider-design.md#diagnostics says so.
func repairFor(code wire.Code, hostCode string) string {
	switch {
	case code == wire.CodeFormIdentityConflict && hostCode == "form_transition_from_mismatch":
		return "The resource is not on the transition's start Form. Refresh and check the recorded form_* attributes."
	case code == wire.CodeFormIdentityConflict && hostCode == "form_transition_request_mismatch":
		return "The host holds this transition operation id with other content. Report it to the host operator."
	case code == wire.CodeFormIdentityConflict && hostCode != "":
		return "The host rejected the Form transition; the resource is unchanged and operable. Apply again to try under a new operation id."
	case code == wire.CodeResourceBusy && hostCode == "form_transition_in_progress":
		return "A Form transition holds the resource. Apply again with the same configuration to reconcile it (the message names its readback path), then make the change."
	}
	return repairs[code]
}

const protocolInvalidRepair = "The host's answer breaks the protocol, so the provider will not guess a remedy. Check the host (and any proxy in front of it)."
