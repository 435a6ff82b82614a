// Package rules holds the pure, self-contained rules of the relations, worker
// aggregate, attachment and artifact sections of the Host API (docs/protocol.md#relations, docs/protocol.md#artifacts).
// Nothing here performs I/O, reads a store or names a Form kind: every fact about other
// resources is passed in by the caller, everything about a Form comes from the catalog
// model, and every refusal is a *Refusal carrying its wire code (Refusal.Wire builds
// the envelope body, with details {"field": pointer} when one field is at fault).
//
// Where the lane calls what (apply, import and every 202 commit, before any mutation):
//
//	materialize:  Form.Materialize, then CanonicalizeSpec (hostname fields, docs/protocol.md#aggregate)
//	spec gate:    Form.ValidateDesired, then CheckSemanticFields (cron parse by package rules/cron, docs/protocol.md#aggregate,
//	              hostname check; returns the tenant-wide hostname claims)
//	relations:    ExtractReferences → per reference: resolve (tenant, space, group,
//	              kind, name) → Target → VerifyReference (docs/protocol.md#relations order) → PinOf
//	aggregate:    CheckEnvironmentNamespace (docs/protocol.md#aggregate); CheckHandlersExported with the
//	              handlers artifact.MainModuleExports reads (docs/protocol.md#artifacts); CheckDeployment,
//	              ReverseGate (docs/protocol.md#aggregate); AttachmentGate (docs/protocol.md#aggregate); ClaimTaken for
//	              hostname / single endpoint / single consumer claims; CheckDeadLetter
//	              (docs/protocol.md#aggregate); EndpointAddress for endpoint outputs (docs/protocol.md#aggregate)
//	delete:       DependencyInUse (docs/protocol.md#relations), DeploymentDeleteGate (docs/protocol.md#aggregate)
//	rendering:    EvaluateDrift (docs/protocol.md#relations), WorkerReadiness (docs/protocol.md#aggregate)
package rules
