package client

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// IdempotencyKey is the deterministic key of docs/provider-design.md#lifecycle: "takoform-" + hex
// SHA-256 of the JCS array [operation, apiVersion, kind, definitionVersion,
// schemaDigest, space, name, uid, generation, bodyDigest].
func IdempotencyKey(operation string, ref wire.FormRef, space, name, uid, generation string, body []byte) (string, error) {
	bodyDigest := ""
	if body != nil {
		s := sha256.Sum256(body)
		bodyDigest = hex.EncodeToString(s[:])
	}
	arr := []string{operation, ref.APIVersion, ref.Kind, ref.DefinitionVersion, ref.SchemaDigest, space, name, uid, generation, bodyDigest}
	raw, err := json.Marshal(arr)
	if err != nil {
		return "", err
	}
	canon, err := wire.Canonicalize(raw)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(canon)
	return "takoform-" + hex.EncodeToString(s[:]), nil
}

// ResourcePath is {api}/resources/{formGroup}/{formVersion}/{kind}/{name}.
func ResourcePath(api string, ref wire.FormRef, name string) string {
	group, version, _ := strings.Cut(ref.APIVersion, "/")
	return api + "/resources/" + group + "/" + version + "/" + ref.Kind + "/" + name
}
