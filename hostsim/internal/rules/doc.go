// Package rules holds the pure, self-contained rules of the relations, worker
// aggregate, attachment and artifact sections of the Host API (host-api.md §14–§17).
// Nothing here performs I/O, reads a store or names a Form kind: every fact about other
// resources is passed in by the caller, everything about a Form comes from the catalog
// model, and every refusal is a *Refusal carrying its wire code (Refusal.Wire builds
// the envelope body, with details {"field": pointer} when one field is at fault).
//
// Where the lane calls what (apply, import and every 202 commit, before any mutation):
//
//	materialize:  Form.Materialize, then CanonicalizeSpec (hostname fields, §15.7)
//	spec gate:    Form.ValidateDesired, then CheckSemanticFields (cron parse §15.8,
//	              hostname check; returns the tenant-wide hostname claims)
//	relations:    ExtractReferences → per reference: resolve (tenant, space, group,
//	              kind, name) → Target → VerifyReference (§14.3 order) → PinOf
//	aggregate:    CheckEnvironmentNamespace (§15.5); CheckHandlersExported with the
//	              handlers artifact.MainModuleExports reads (§17.5); CheckDeployment,
//	              ReverseGate (§15.1, §15.3); AttachmentGate (§15.2); ClaimTaken for
//	              hostname / single endpoint / single consumer claims; CheckDeadLetter
//	              (§15.9); EndpointAddress for endpoint outputs (§15.6)
//	delete:       DependencyInUse (§14.5), DeploymentDeleteGate (§15.3)
//	rendering:    EvaluateDrift (§14.4), WorkerReadiness (§15.4)
package rules
