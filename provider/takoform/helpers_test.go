package takoform

import (
	"context"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/embedded"
)

var (
	catOnce sync.Once
	catVal  *catalog.Catalog
	catErr  error
)

// testCatalog is the embedded project catalog as the provider binary has it: the model
// generated at build time (catalog/embedded), whose Forms validate with their own checks.
func testCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	catOnce.Do(func() { catVal = embedded.Catalog() })
	if catErr != nil {
		t.Fatalf("embedded catalog does not load: %v", catErr)
	}
	return catVal
}

func testProvider(t testing.TB) *Provider {
	t.Helper()
	p, err := newProvider("test", testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// kindByType returns the generated kind type named typeName.
func kindByType(t testing.TB, p *Provider, typeName string) *kindType {
	t.Helper()
	for _, kt := range p.kinds {
		if kt.model.typeName == typeName {
			return kt
		}
	}
	t.Fatalf("no resource type %s", typeName)
	return nil
}

func protoServer(t testing.TB) tfprotov6.ProviderServer {
	t.Helper()
	p := testProvider(t)
	srv, err := providerserver.NewProtocol6WithError(p)()
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func schemaResp(t testing.TB) *tfprotov6.GetProviderSchemaResponse {
	t.Helper()
	resp, err := protoServer(t).GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("schema diagnostic: %s: %s", d.Summary, d.Detail)
	}
	return resp
}
