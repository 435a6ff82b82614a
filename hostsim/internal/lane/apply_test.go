package lane_test

import (
	"strings"
	"testing"
)

// Apply and import refuse each malformed body with its own message, in the
// order of checks (docs/protocol.md#order), and write nothing; the edges of
// /nativeId (1 and 4096 characters) are accepted.
func TestApplyAndImportBodies(t *testing.T) {
	h := newHost(t, "")
	digest := map[string]any{"prepareDigest": "sha256:" + strings.Repeat("0", 64)}
	for _, tc := range []struct {
		name, route string
		headers     map[string]string
		body        func(name string) []byte
		status      int
		code, want  string
	}{
		{"apply-not-json", "", nil, func(string) []byte { return []byte("{") }, 400, "invalid_argument", "not acceptable JSON"},
		{"apply-bad-uid", "", nil, func(n string) []byte {
			return h.doc(n, map[string]any{"metadata": map[string]any{"name": n, "space": space, "uid": "not a uid"}, "review": digest})
		}, 400, "invalid_argument", "/metadata/uid"},
		{"apply-no-review", "", nil, func(n string) []byte { return h.doc(n, map[string]any{"review": nil}) }, 400, "invalid_argument", "/review/prepareDigest"},
		{"apply-bad-review", "", nil, func(n string) []byte {
			return h.doc(n, map[string]any{"review": map[string]any{"prepareDigest": "sha256:zz"}})
		}, 400, "invalid_argument", "/review/prepareDigest"},
		{"apply-bad-expected-uid", "", map[string]string{"If-None-Match": "", "Takoform-Expected-Generation": "1"}, func(n string) []byte {
			return h.doc(n, map[string]any{"review": digest, "expectedUid": "not a uid"})
		}, 400, "invalid_argument", "/expectedUid"},
		{"apply-other-name", "", nil, func(string) []byte { return h.doc("other", map[string]any{"review": digest}) }, 400, "invalid_argument", "they must agree"},
		{"apply-other-api-version", "", nil, func(n string) []byte {
			return h.doc(n, map[string]any{"apiVersion": h.f.Ref.APIVersion + "x", "review": digest})
		}, 400, "invalid_argument", "they must agree"},
		{"apply-bad-spec-no-intent", "", map[string]string{"If-None-Match": ""}, func(n string) []byte {
			return h.doc(n, map[string]any{"spec": map[string]any{"noSuchField": 1}, "review": digest})
		}, 400, "invalid_argument", "does not satisfy the desiredSchema"},
		{"apply-bad-package-digest", "", nil, func(n string) []byte {
			return h.doc(n, map[string]any{"form": map[string]any{"formRef": h.f.Ref, "packageDigest": "sha256:zz"}, "review": digest})
		}, 400, "invalid_argument", "/form/packageDigest"},
		{"apply-bad-spec", "", nil, func(n string) []byte {
			return h.doc(n, map[string]any{"spec": map[string]any{"noSuchField": 1}, "review": digest})
		}, 400, "invalid_argument", "does not satisfy the desiredSchema"},
		{"import-bad-fence", "/import", map[string]string{"Takoform-Expected-Generation": "01"}, func(n string) []byte {
			return h.doc(n, map[string]any{"nativeId": "n-fence"})
		}, 400, "invalid_argument", "not a canonical decimal"},
		{"import-not-json", "/import", nil, func(string) []byte { return []byte("{") }, 400, "invalid_argument", "not acceptable JSON"},
		{"import-bad-uid", "/import", nil, func(n string) []byte {
			return h.doc(n, map[string]any{"metadata": map[string]any{"name": n, "space": space, "uid": "not a uid"}, "nativeId": "n-uid"})
		}, 400, "invalid_argument", "/metadata/uid"},
		{"import-no-native-id", "/import", nil, func(n string) []byte { return h.doc(n, map[string]any{"nativeId": nil}) }, 400, "invalid_argument", "/nativeId"},
		{"import-padded-native-id", "/import", nil, func(n string) []byte { return h.doc(n, map[string]any{"nativeId": " x"}) }, 400, "invalid_argument", "/nativeId"},
		{"import-one-char-native-id", "/import", nil, func(n string) []byte { return h.doc(n, map[string]any{"nativeId": "x"}) }, 201, "", ""},
		{"import-longest-native-id", "/import", nil, func(n string) []byte {
			return h.doc(n, map[string]any{"nativeId": strings.Repeat("y", 4096)})
		}, 201, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.t = t
			hd := map[string]string{"If-None-Match": "*", "Idempotency-Key": h.key()}
			for k, v := range tc.headers {
				hd[k] = v
				if v == "" {
					delete(hd, k)
				}
			}
			r := h.do(map[string]string{"": "PUT", "/import": "POST"}[tc.route], h.path(tc.name)+tc.route, hd, tc.body(tc.name)).want(tc.status)
			if tc.code == "" {
				return
			}
			r.refused(tc.code, tc.want)
			h.do("GET", h.path(tc.name)+h.query(), nil, nil).refused("resource_not_found", "")
		})
	}
}
