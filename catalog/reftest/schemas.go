package reftest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/takokit/takokit/catalog/wire"
)

// Schemas compiles the published JSON Schemas of lane (schemas/ of its folder) and
// returns a lookup by file name, with an optional "#/$defs/..." fragment
// ("host-api-wire-v1beta1.schema.json#/$defs/resource"). Every lane folder's
// schemas are added as resources, because a published schema of one lane may refer
// to another lane's by its $id; a lookup answers only the requested lane's files.
func Schemas(t testing.TB, lane *wire.Lane) func(file string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	ids := map[string]string{}
	added := map[string]bool{}
	for _, other := range append([]*wire.Lane{lane}, wire.Lanes()...) {
		var dir string
		if other == lane {
			dir = filepath.Join(Lane(t, lane), "schemas")
		} else {
			dir = filepath.Join(Root(t), "takoform-"+other.Name, "schemas")
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.schema.json"))
		if (err != nil || len(files) == 0) && other == lane {
			t.Fatalf("the published folder of lane %s has no schemas under %s", lane.Name, dir)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			id, _ := doc.(map[string]any)["$id"].(string)
			if id == "" {
				id = "https://reference.invalid/" + other.Name + "/" + filepath.Base(f)
			}
			if other == lane {
				ids[filepath.Base(f)] = id
			}
			if added[id] {
				continue
			}
			added[id] = true
			if err := c.AddResource(id, doc); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
	}
	return func(file string) *jsonschema.Schema {
		t.Helper()
		name, frag, _ := strings.Cut(file, "#")
		id, ok := ids[name]
		if !ok {
			t.Fatalf("the published schemas of lane %s have no %s", lane.Name, name)
		}
		if frag != "" {
			id += "#" + frag
		}
		s, err := c.Compile(id)
		if err != nil {
			t.Fatalf("compiling the published %s: %v", id, err)
		}
		return s
	}
}
