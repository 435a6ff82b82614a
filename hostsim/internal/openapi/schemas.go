package openapi

import "github.com/takokit/takokit/catalog/wire"

// The lane's shared documents (docs/protocol.md#representation, #errors, #operations,
// #discovery, #support, #artifacts), closed where the protocol closes them.

func strs(ss []string) arr {
	out := arr{}
	for _, s := range ss {
		out = append(out, s)
	}
	return out
}

func closed(required arr, props obj) obj {
	return obj{"type": "object", "additionalProperties": false, "required": required, "properties": props}
}

func (g *gen) commonSchemas() {
	s := g.schemas
	var codes arr
	for _, c := range wire.Codes() {
		codes = append(codes, string(c))
	}
	s["Digest"] = obj{"type": "string", "pattern": "^sha256:[0-9a-f]{64}$"}
	s["Decimal"] = obj{"type": "string", "pattern": "^[1-9][0-9]{0,18}$", "description": "A canonical positive decimal (docs/protocol.md#decimals)."}
	s["UID"] = obj{"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"}
	s["SpaceID"] = obj{"type": "string", "minLength": 1, "maxLength": 255, "description": "docs/protocol.md#spaces"}
	s["Name"] = obj{"type": "string", "pattern": "^[a-z][a-z0-9-]{0,62}$"}
	s["RequestMetadata"] = obj{"type": "object", "additionalProperties": false, "required": arr{"name", "space"},
		"properties": obj{"name": ref("Name"), "space": ref("SpaceID"), "uid": obj{"type": "string"}, "generation": obj{"type": "string"}, "revision": obj{"type": "string"}}}
	s["ResponseMetadata"] = closed(arr{"name", "space", "uid", "generation", "revision"},
		obj{"name": ref("Name"), "space": ref("SpaceID"), "uid": ref("UID"), "generation": ref("Decimal"), "revision": ref("Decimal")})
	s["Condition"] = closed(arr{"type", "status", "reason", "lastTransitionTime"}, obj{
		"type": obj{"enum": strs(wire.ConditionTypes())}, "status": obj{"enum": strs(wire.ConditionStatuses())},
		"reason": obj{"enum": strs(wire.ConditionReasons())}, "hostReason": obj{"type": "string", "maxLength": 256},
		"message": obj{"type": "string", "maxLength": 4096}, "lastTransitionTime": obj{"type": "string", "format": "date-time"}})
	s["ErrorEnvelope"] = closed(arr{"error"}, obj{"error": closed(arr{"code", "message", "requestId", "retryable"}, obj{
		"code": obj{"enum": codes}, "message": obj{"type": "string"}, "requestId": obj{"type": "string"},
		"retryable": obj{"type": "boolean"}, "hostCode": obj{"type": "string"}, "details": obj{"type": "object"}})})
	s["ResourceEnvelope"] = closed(arr{"resource"}, obj{"resource": ref("FormResource")})
	s["Operation"] = closed(arr{"apiVersion", "kind", "id", "done"}, obj{
		"apiVersion": obj{"const": "operations.takoform.com/v1alpha1"}, "kind": obj{"const": "Operation"},
		"id": obj{"type": "string", "pattern": "^op_"}, "done": obj{"type": "boolean"},
		"target": obj{"type": "object"}, "metadata": obj{"type": "object"},
		"result": obj{"oneOf": arr{closed(arr{"resource"}, obj{"resource": ref("FormResource")}), closed(arr{"deleted"}, obj{"deleted": obj{"const": true}})}},
		"error":  closed(arr{"code", "message", "retryable"}, obj{"code": obj{"enum": codes}, "message": obj{"type": "string"}, "retryable": obj{"type": "boolean"}, "hostCode": obj{"type": "string"}})})
	s["OperationEnvelope"] = closed(arr{"operation"}, obj{"operation": ref("Operation")})
	endpoint := obj{"type": "string", "format": "uri"}
	s["Discovery"] = closed(arr{"api_versions", "features", "endpoints"}, obj{
		"api_versions": obj{"type": "array", "items": obj{"const": g.lane.APIVersion}, "minItems": 1, "maxItems": 1},
		"features":     obj{"type": "object", "additionalProperties": obj{"type": "boolean"}},
		"endpoints": closed(arr{"api"}, obj{"api": endpoint, "artifacts": endpoint, "operations": endpoint, "support": endpoint,
			"oidc_issuer": endpoint})})
	s["FormsResponse"] = closed(arr{"forms"}, obj{"forms": obj{"type": "array", "items": obj{"type": "object",
		"required": arr{"identity", "definitionKnown", "installed", "executable", "activated", "availableToPrincipal", "operations"}}}})
	s["FormDefinitionResponse"] = obj{"type": "object", "required": arr{"identity", "desiredSchema"},
		"properties": obj{"identity": obj{"type": "object"}, "desiredSchema": obj{"type": "object"}, "displayName": obj{"type": "string"}, "description": obj{"type": "string"}}}
	s["ValidateResponse"] = closed(arr{"valid", "diagnostics"}, obj{"valid": obj{"type": "boolean"},
		"diagnostics": obj{"type": "array", "maxItems": 256, "items": obj{"type": "object"}}})
	s["PrepareResponse"] = closed(arr{"resource", "review"}, obj{"resource": ref("FormPrepared"),
		"review": closed(arr{"prepareDigest", "specDigest"}, obj{"prepareDigest": ref("Digest"), "specDigest": ref("Digest")})})
	s["Manifest"] = obj{"type": "object", "required": arr{"apiVersion", "kind"}, "properties": obj{
		"apiVersion": obj{"const": wire.ArtifactAPIVersion}, "kind": obj{"enum": manifestKinds()}}}
	s["ArtifactUploadRequest"] = closed(arr{"manifest"}, obj{"manifest": ref("Manifest")})
	s["ArtifactUploadStatus"] = closed(arr{"uploadId", "missingBlobs"}, obj{"uploadId": obj{"type": "string"},
		"missingBlobs": obj{"type": "array", "items": ref("Digest")}})
	s["ArtifactCommitResponse"] = closed(arr{"manifestDigest"}, obj{"manifestDigest": ref("Digest")})
	s["SupportProfile"] = obj{"type": "object", "required": arr{"apiVersion", "kind"}, "properties": obj{
		"apiVersion": obj{"type": "string"}, "kind": obj{"enum": arr{"FormSupport", "InterfaceSupport", "BindingSupport"}},
		"limits": obj{"type": "object", "additionalProperties": obj{"type": "integer"}}}}
	s["SupportProfilesResponse"] = closed(arr{"profiles"}, obj{"profiles": obj{"type": "array", "items": ref("SupportProfile")}})
	s["TransitionRequest"] = obj{"type": "object", "required": arr{"operationId", "fromForm", "toForm", "resource", "expected", "transitionEvidence"}}
	s["TransitionAnswer"] = obj{"type": "object", "required": arr{"operation"}, "properties": obj{"operation": obj{"type": "object",
		"required": arr{"operationId", "status"}}, "resource": obj{"type": "object"}, "transitionProof": obj{"type": "object"}}}
	s["AdminDocument"] = obj{"type": "object", "description": "An answer of hostsim's admin API (docs/protocol.md#admin)."}
}

func manifestKinds() arr {
	out := arr{}
	for _, m := range wire.ManifestKinds {
		out = append(out, m.Kind)
	}
	return out
}
