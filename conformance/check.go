// Package conformance measures a Takoform host black-box over HTTP against the
// lane its discovery names (forms.takoform.com/v1beta1, or the withdrawn v1alpha3;
// docs/protocol.md#lanes), the declared-outputs rule, the support-profile
// rules and the transition protocol (docs/guides/conformance.md). Checks are data: one
// explicit table (table.go), validated by a test, each with a registered
// negative (negatives.go) proving it can fail.
package conformance

import "context"

// Area groups checks; the table is sorted by area in this order.
type Area string

// The areas of docs/guides/conformance.md, in table order.
const (
	AreaDiscovery   Area = "discovery & auth"
	AreaCatalog     Area = "catalog surface"
	AreaValidate    Area = "validate & prepare"
	AreaIdentity    Area = "identity & fences"
	AreaIdempotency Area = "idempotency"
	AreaOperations  Area = "operations"
	AreaOutputs     Area = "outputs"
	AreaSupport     Area = "support profiles"
	AreaErrors      Area = "errors & JSON"
	AreaTenancy     Area = "tenancy"
	AreaRelations   Area = "relations & aggregate"
	AreaArtifacts   Area = "artifacts"
	AreaTransitions Area = "transitions"
)

// Areas returns the areas in table order.
func Areas() []Area {
	return []Area{AreaDiscovery, AreaCatalog, AreaValidate, AreaIdentity, AreaIdempotency,
		AreaOperations, AreaOutputs, AreaSupport, AreaErrors, AreaTenancy, AreaRelations, AreaArtifacts, AreaTransitions}
}

func areaIndex(a Area) int {
	for i, x := range Areas() {
		if x == a {
			return i
		}
	}
	return -1
}

// Need names something a check exercises that a host or a run may lack. A check
// whose needs are not met is reported not-applicable (docs/guides/conformance.md).
type Need string

// The needs the runner can decide before a check runs. Form-shaped needs (a Form
// with update, with outputs, ...) are decided while the check picks its Form from
// the host's support surface; the check then reports not-applicable itself.
const (
	NeedAlternate   Need = "alternate-principal" // --alternate-token-env was given
	NeedOtherTenant Need = "other-tenant"        // --other-tenant-token-env was given
	NeedProbes      Need = "conformance-probes"  // the host honours Takoform-Conformance-Probe
	NeedTransitions Need = "form-transition"     // discovery advertises resource_form_transition
	NeedForm        Need = "form"                // any installed Form the runner can create
	NeedUpdate      Need = "form:update"         // a Form declaring update with a mutable field
	NeedOutputs     Need = "form:outputs"        // a Form declaring outputs
	NeedNoOutputs   Need = "form:no-outputs"     // a Form declaring no outputs
	NeedRevision    Need = "form:revision"       // a revision-role Form
	NeedNoUpdate    Need = "form:no-update"      // a non-revision Form without update that has fields
	NeedImmutable   Need = "form:immutable"      // a Form with update and an immutable field
	NeedTwoVersions Need = "form:two-versions"   // a kind installed in two definition versions
	NeedRelations   Need = "relations"           // a Form with a reference to another resource
	NeedBindings    Need = "bindings"            // a Form with a binding list
	NeedAggregate   Need = "worker-aggregate"    // deployment and attachment roles installed
	NeedArtifacts   Need = "artifacts"           // an artifact-addressed Form
	NeedSupport     Need = "support-profiles"    // always claimed: support routes are judged on every host
)

// Check is one conformance check: a value in the table.
type Check struct {
	ID          string // kebab-case; the published id where the behaviour is the same
	Title       string
	Requirement string // one MUST sentence
	Area        Area
	Project     bool // a project-only id (marked † in docs/guides/conformance.md)
	Needs       []Need
	Run         func(ctx context.Context, p *Probe) error
	// Anchor is the docs/protocol.md anchor where the rule is stated ("fences");
	// "" = the check's entry in anchors.go, else its area's (Check.ProtocolAnchor).
	Anchor string
}

// Status is the outcome of one check.
type Status string

// The five statuses of docs/guides/conformance.md.
const (
	StatusPass          Status = "pass"
	StatusFail          Status = "fail"
	StatusError         Status = "error"
	StatusNotApplicable Status = "not-applicable"
	StatusSkipped       Status = "skipped"
)
