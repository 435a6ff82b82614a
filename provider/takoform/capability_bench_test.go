package takoform

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// benchKinds are the five kinds of the 200-resource plan: each needs only a name
// (and the queue its retention), and together they read 5 Form routes and the 6
// Interface routes their Forms provide.
var benchKinds = []struct {
	typeName string
	extra    values
}{
	{queueType, values{"message_retention_seconds": i64(3600)}},
	{"takoform_edge_kv_namespace", nil},
	{"takoform_edge_object_bucket", nil},
	{"takoform_sqlite_database", nil},
	{"takoform_module_worker", nil},
}

// benchDyn encodes v as a value of kt (missing attributes null; nil = null object).
func benchDyn(tb testing.TB, kt *kindType, v values) *tfprotov6.DynamicValue {
	ctx := context.Background()
	typ := kt.objectType.TerraformType(ctx)
	raw := tftypes.NewValue(typ, nil)
	if v != nil {
		var err error
		if raw, err = v.raw(ctx, kt.objectType); err != nil {
			tb.Fatal(err)
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, raw)
	if err != nil {
		tb.Fatal(err)
	}
	return &dv
}

// benchConfigure returns a freshly configured provider server: one provider
// configuration, so an empty support cache, as at the start of `tofu plan`.
func benchConfigure(tb testing.TB, p *Provider, url string) tfprotov6.ProviderServer {
	ctx := context.Background()
	srv, err := providerserver.NewProtocol6WithError(p)()
	if err != nil {
		tb.Fatal(err)
	}
	typ := providerConfigType()
	cfg, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, map[string]tftypes.Value{
		"endpoint": tftypes.NewValue(tftypes.String, url), "space": tftypes.NewValue(tftypes.String, "dev"),
		"token": tftypes.NewValue(tftypes.String, "sim-primary"), "require_support_surface": tftypes.NewValue(tftypes.Bool, nil)}))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		tb.Fatal(err)
	}
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &cfg})
	if err != nil || len(resp.Diagnostics) > 0 {
		tb.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
	return srv
}

// benchPlanAll plans n resources per kind for creation, ten at a time (OpenTofu's
// default parallelism), and fails on any diagnostic.
func benchPlanAll(tb testing.TB, p *Provider, srv tfprotov6.ProviderServer, n int) {
	type job struct {
		kind *kindType
		cfg  values
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failure string
	for w := 0; w < 10; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				cfg := benchDyn(tb, j.kind, j.cfg)
				resp, err := srv.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
					TypeName: j.kind.model.typeName, PriorState: benchDyn(tb, j.kind, nil), ProposedNewState: cfg, Config: cfg})
				if err != nil || len(resp.Diagnostics) > 0 {
					mu.Lock()
					failure = fmt.Sprintf("%s %s: %v %s", j.kind.model.typeName, j.cfg.str(aName), err, dumpProto(resp))
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		for _, k := range benchKinds {
			cfg := values{aName: s(fmt.Sprintf("r-%d", i))}
			for a, v := range k.extra {
				cfg[a] = v
			}
			jobs <- job{kindByType(tb, p, k.typeName), cfg}
		}
	}
	close(jobs)
	wg.Wait()
	if failure != "" {
		tb.Fatal(failure)
	}
}

func dumpProto(resp *tfprotov6.PlanResourceChangeResponse) string {
	if resp == nil {
		return ""
	}
	out := ""
	for _, d := range resp.Diagnostics {
		out += d.Summary + ": " + d.Detail + "\n"
	}
	return out
}

// benchRoutes is the number of distinct support routes the plan needs.
func benchRoutes(tb testing.TB, p *Provider) int {
	routes := map[string]bool{}
	for _, k := range benchKinds {
		f := kindByType(tb, p, k.typeName).model.newest
		routes["form "+f.Ref.Kind+"@"+f.Ref.DefinitionVersion] = true
		for _, i := range f.Provided {
			routes["interface "+i.Name+"@"+i.Version] = true
		}
	}
	return len(routes)
}

// BenchmarkPlan200Resources5Kinds plans 200 creations (40 of each of 5 kinds) per
// iteration, each under a new provider configuration, and reports the support
// requests one plan makes; it fails unless that equals the distinct routes.
// Run: go test -run '^$' -bench Plan200 -benchtime 10x ./takoform/
func BenchmarkPlan200Resources5Kinds(b *testing.B) {
	sim := hostsimtest.Start(b, hostsim.Config{})
	p := testProvider(b)
	routes := benchRoutes(b, p)
	var reads int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		srv := benchConfigure(b, p, sim.URL)
		before, err := sim.Admin.Counters()
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		benchPlanAll(b, p, srv, 200/len(benchKinds))
		b.StopTimer()
		after, err := sim.Admin.Counters()
		if err != nil {
			b.Fatal(err)
		}
		got := after.SupportReads - before.SupportReads
		if got != int64(routes) {
			b.Fatalf("one plan of 200 resources made %d support requests, want %d (one per distinct route)", got, routes)
		}
		reads += got
		b.StartTimer()
	}
	b.ReportMetric(float64(reads)/float64(b.N), "support-reqs/plan")
	b.ReportMetric(float64(routes), "distinct-routes")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*200), "ns/resource")
}
