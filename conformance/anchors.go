package conformance

// ProtocolDoc is the page whose anchors state the rules the checks measure.
const ProtocolDoc = "docs/protocol.md"

// areaAnchors is the docs/protocol.md section where an area's rules are stated,
// for a check that names none of its own.
var areaAnchors = map[Area]string{
	AreaDiscovery:   "discovery",
	AreaCatalog:     "routes",
	AreaValidate:    "prepare",
	AreaIdentity:    "fences",
	AreaIdempotency: "idempotency",
	AreaOperations:  "operations",
	AreaOutputs:     "outputs",
	AreaSupport:     "support",
	AreaErrors:      "errors",
	AreaTenancy:     "auth",
	AreaRelations:   "relations",
	AreaArtifacts:   "artifacts",
	AreaTransitions: "transitions",
}

// checkAnchors names the section of the checks whose rule is stated elsewhere than
// their area's. A new check sets Check.Anchor instead.
var checkAnchors = map[string]string{
	"unauthenticated-request-refused":                   "auth",
	"apply-create-uid-minted":                           "identity",
	"apply-headers-required":                            "headers",
	"revision-etag-exact":                               "headers",
	"spec-change-bumps-generation":                      "identity",
	"status-change-bumps-revision-not-generation":       "identity",
	"delete-then-recreate-uid-changes":                  "identity",
	"package-digest-not-identity":                       "identity",
	"resource-answers-only-under-its-recorded-form-ref": "identity",
	"revision-role-update-rejected":                     "capabilities",
	"no-update-spec-change-rejected":                    "capabilities",
	"immutable-field-change-rejected":                   "capabilities",
	"concurrent-unrelated-mutation":                     "identity",
	"condition-reason-closed":                           "status",
	"import-adopts-native-resource":                     "import",
	"import-validates-like-apply":                       "import",
	"import-claims-its-native-identity":                 "import",
	"same-kind-two-groups":                              "auth",
	"strict-json-duplicate-member-rejected":             "json",
	"strict-json-unknown-member-rejected":               "json",
	"space-id-grammar-enforced":                         "spaces",
	"prepare-is-tenant-scoped":                          "prepare",
	"relation-resolution-is-tenant-scoped":              "relations",
	"deployment-weight-sum-enforced":                    "aggregate",
	"deployment-single-active-per-worker":               "aggregate",
	"attachment-requires-active-deployment":             "aggregate",
	"handler-gated-attachments":                         "aggregate",
	"deployment-change-preserves-dependents":            "aggregate",
	"deployment-delete-blocked-by-inbound-binding":      "aggregate",
	"worker-endpoint-address-is-host-assigned":          "outputs",
	"worker-endpoint-single-per-worker":                 "aggregate",
	"worker-endpoint-address-is-stable-for-its-uid":     "outputs",
	"deployment-version-duplicate-rejected":             "aggregate",
	"deployment-version-ownership":                      "aggregate",
	"binding-name-collision-rejected":                   "aggregate",
	"deployment-delete-blocked-by-dependent":            "aggregate",
	"declared-handler-not-exported-rejected":            "aggregate",
	"delete-fence-survives-derived-rendering":           "fences",
	"attachment-claim-decided-on-import":                "aggregate",
	"attachment-claim-revalidated-at-commit":            "operations",
	"form-transition-feature-advertised":                "discovery",
}

// ProtocolAnchor is the docs/protocol.md anchor where the check's rule is stated:
// its own Anchor, else its entry in checkAnchors, else its area's.
func (c Check) ProtocolAnchor() string {
	if c.Anchor != "" {
		return c.Anchor
	}
	if a, ok := checkAnchors[c.ID]; ok {
		return a
	}
	return areaAnchors[c.Area]
}

// ProtocolLink is the anchor as a link from the repository root:
// "docs/protocol.md#fences".
func (c Check) ProtocolLink() string { return ProtocolDoc + "#" + c.ProtocolAnchor() }
