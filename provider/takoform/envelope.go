package takoform

import "github.com/takokit/takokit/provider/internal/lazyre"

// Envelope attribute names (docs/provider-design.md#attributes). Every one is on the catalog's
// reserved list; TestReservedListEqualsEnvelope proves it.
const (
	aName              = "name"
	aSpace             = "space"
	aUID               = "uid"
	aGeneration        = "generation"
	aRevision          = "revision"
	aConditions        = "conditions"
	aReady             = "ready"
	aOutputsJSON       = "outputs_json"
	aFormAPIVersion    = "form_api_version"
	aFormKind          = "form_kind"
	aFormDefVersion    = "form_definition_version"
	aFormSchemaDigest  = "form_schema_digest"
	aFormPackageDigest = "form_package_digest"
	aFormTransition    = "form_transition"
	aPendingOp         = "pending_operation_id"
	aDrift             = "relation_drift_reason"
	aCreateTimeout     = "create_timeout"
	aDeleteTimeout     = "delete_timeout"
	aUpdateTimeout     = "update_timeout"
	aRevisionOwner     = "revision_owner"
	aMainModule        = "main_module"
	aModules           = "modules"
	aFiles             = "files"
)

// Condition element attribute names (docs/provider-design.md#attributes).
var conditionAttrs = []string{"type", "status", "reason", "message", "host_reason", "observed_generation", "last_transition_time"}

// namePattern is the resource name grammar (also every reference target name).
const namePattern = `^[a-z][a-z0-9-]{0,62}$`

// namePatternRe is namePattern, compiled once per process and only when a name is checked.
var namePatternRe = lazyre.New(namePattern)

// nameRule says namePattern in words, after a name it refuses.
const nameRule = "A name is 1 to 63 lower-case letters, digits and hyphens, starting with a letter."

// resourceNameRules checks a resource name or a reference target's name.
var resourceNameRules = stringRules{pattern: namePatternRe, about: nameRule}

// revisionOwnerPattern bounds revision_owner (docs/provider-design.md#attributes).
const revisionOwnerPattern = `^[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$`
