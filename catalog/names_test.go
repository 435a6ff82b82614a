package catalog

import "testing"

func TestSnake(t *testing.T) {
	for wire, want := range map[string]string{
		"messageRetentionSeconds": "message_retention_seconds",
		"kvBindings":              "kv_bindings",
		"requiredSensitiveVars":   "required_sensitive_vars",
		"deadLetterQueue":         "dead_letter_queue",
		"vars":                    "vars",
		"workerVersion":           "worker_version",
		"port":                    "port",
		"sqliteBindings":          "sqlite_bindings",
		"maxTTLSeconds":           "max_ttl_seconds",
		"httpURL":                 "http_url",
		"v2Name":                  "v2_name",
		"aB":                      "a_b",
		"dependsOn":               "depends_on",
		"URLPath":                 "url_path", // an initial capital: nothing before it
	} {
		if got := Snake(wire); got != want {
			t.Errorf("Snake(%q) = %q, want %q", wire, got, want)
		}
	}
}

func TestTypeName(t *testing.T) {
	for slug, want := range map[string]string{"module-worker": "takoform_module_worker", "sqlite-database": "takoform_sqlite_database", "at-least-once-queue": "takoform_at_least_once_queue"} {
		if got := TypeName(slug); got != want {
			t.Errorf("TypeName(%q) = %q, want %q", slug, got, want)
		}
	}
}

func TestReservedAttributes(t *testing.T) {
	r := ReservedAttributes()
	for name, group := range map[string]string{"name": ReservedEveryResource, "outputs_json": ReservedEveryResource,
		"update_timeout": ReservedUpdate, "revision_owner": ReservedRevision, "modules": ReservedArtifact, "files": ReservedArtifact,
		"timeouts": ReservedProvider, "depends_on": ReservedMetaArgument, "connection": ReservedMetaArgument} {
		if r[name] != group {
			t.Errorf("reserved %q group %q, want %q", name, r[name], group)
		}
	}
	if len(r) != 18+1+1+3+2+7 {
		t.Errorf("reserved list has %d names", len(r))
	}
	r["x"] = "y"
	if _, ok := ReservedAttributes()["x"]; ok {
		t.Errorf("ReservedAttributes must return a fresh map")
	}
}

// TestSnakeCollisionsRefused: two wire names of one Form mapping to one attribute,
// and a json-map whose suffixed name meets another property, are refused.
func TestSnakeCollisionsRefused(t *testing.T) {
	for name, props := range map[string]obj{
		"json suffix": {"labelsJson": obj{"type": "string", "description": "x"}},
		"acronym":     {"maxTTL": obj{"type": "string", "description": "x"}, "maxTtl": obj{"type": "string", "description": "y"}},
	} {
		c := baseCatalog()
		g := propsOf(c, "Gadget", "0.1.0")
		for k, v := range props {
			g[k] = v
		}
		fsys := mapFS(c.seal(t))
		_, err := Load(fsys)
		if err == nil || !containsAll(err.Error(), gadget1, "both become attribute") {
			t.Errorf("%s: want a collision naming %s, got %v", name, gadget1, err)
		}
	}
}
