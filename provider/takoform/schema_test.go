package takoform

import (
	"testing"
)

func TestEveryKindGetsOneResourceType(t *testing.T) {
	t.Parallel()
	resp := schemaResp(t)
	cat := testCatalog(t)
	if got, want := len(resp.ResourceSchemas), len(cat.Kinds()); got != want {
		t.Fatalf("resource types = %d, kinds = %d", got, want)
	}
	for _, k := range cat.Kinds() {
		s, ok := resp.ResourceSchemas[k.TypeName]
		if !ok {
			t.Errorf("kind %s has no resource type %s", k.Kind, k.TypeName)
			continue
		}
		if s.Version != SchemaVersion {
			t.Errorf("%s: schema version %d, want %d", k.TypeName, s.Version, SchemaVersion)
		}
	}
	if len(resp.DataSourceSchemas) != 0 {
		t.Errorf("data sources = %d, want none", len(resp.DataSourceSchemas))
	}
}
