package wire

// Status conditions are closed vocabularies (docs/protocol.md#status): a host
// never invents a type, status or reason, and a client refuses one it does not know.

// Condition types.
const (
	ConditionReady       = "Ready"
	ConditionReconciling = "Reconciling"
	ConditionDegraded    = "Degraded"
	ConditionDrifted     = "Drifted"
	ConditionBlocked     = "Blocked"
	ConditionDeleting    = "Deleting"
)

// Condition statuses.
const (
	StatusTrue    = "True"
	StatusFalse   = "False"
	StatusUnknown = "Unknown"
)

// Condition reasons.
const (
	ReasonAvailable             = "Available"
	ReasonProvisioning          = "Provisioning"
	ReasonReconciling           = "Reconciling"
	ReasonFailed                = "Failed"
	ReasonBackendUnavailable    = "BackendUnavailable"
	ReasonSpecDrift             = "SpecDrift"
	ReasonExternalChange        = "ExternalChange"
	ReasonDependencyMissing     = "DependencyMissing"
	ReasonDependencyInUse       = "DependencyInUse"
	ReasonPolicyDenied          = "PolicyDenied"
	ReasonUnsupportedCapability = "UnsupportedCapability"
	ReasonDeleting              = "Deleting"
)

var (
	conditionTypes    = []string{ConditionReady, ConditionReconciling, ConditionDegraded, ConditionDrifted, ConditionBlocked, ConditionDeleting}
	conditionStatuses = []string{StatusTrue, StatusFalse, StatusUnknown}
	conditionReasons  = []string{ReasonAvailable, ReasonProvisioning, ReasonReconciling, ReasonFailed, ReasonBackendUnavailable,
		ReasonSpecDrift, ReasonExternalChange, ReasonDependencyMissing, ReasonDependencyInUse, ReasonPolicyDenied,
		ReasonUnsupportedCapability, ReasonDeleting}
)

// ConditionTypes, ConditionStatuses and ConditionReasons return the closed
// vocabularies in their documented order (a fresh slice each call).
func ConditionTypes() []string    { return append([]string(nil), conditionTypes...) }
func ConditionStatuses() []string { return append([]string(nil), conditionStatuses...) }
func ConditionReasons() []string  { return append([]string(nil), conditionReasons...) }

// KnownConditionType, KnownConditionStatus and KnownConditionReason report
// membership in the closed vocabularies.
func KnownConditionType(s string) bool   { return contains(conditionTypes, s) }
func KnownConditionStatus(s string) bool { return contains(conditionStatuses, s) }
func KnownConditionReason(s string) bool { return contains(conditionReasons, s) }
