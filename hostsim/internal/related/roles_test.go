package related

import (
	"strings"
	"testing"
)

// The roles table is read strictly, and a bundle kind must commit to a
// manifest kind: the artifact rules resolve its manifestDigest as one.
func TestRolesTableRefusesWhatTheRulesCannotRead(t *testing.T) {
	if _, err := parseRoles(rolesJSON); err != nil {
		t.Fatalf("the shipped table: %v", err)
	}
	for _, c := range []struct{ doc, says string }{
		{`{"bundles": [{"kind": "WorkerBundle", "manifestDigest": "/manifestDigest"}, {"kind": "EdgeKVNamespace", "manifestDigest": "/manifestDigest"}]}`,
			"bundle kind EdgeKVNamespace commits to no manifest kind"},
		{`{"bundles": [], "bundle": []}`, "bundle"},
		{`{"bundles": [{"kind": "WorkerBundle", "kind": "StaticAssetBundle", "manifestDigest": "/m"}]}`, "kind"},
	} {
		_, err := parseRoles([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.says) || !strings.HasPrefix(err.Error(), "worker_roles.json: ") {
			t.Errorf("%s: %v, want an error naming worker_roles.json saying %q", c.doc, err, c.says)
		}
	}
}
