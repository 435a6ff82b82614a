package takoform

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/catalog/embedded"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// BenchmarkProviderStart is what one provider process pays before it answers
// GetProviderSchema once its packages are initialized: provider construction over the
// generated model (static data, assembled once) and the schema answer. OpenTofu starts
// the provider three times per plan, so this is paid three times; the rest of a start
// (runtime, package init, the plugin handshake) is measured with provider/cmd/schemaprobe.
//
//	go test -run '^$' -bench ProviderStart -cpuprofile start.out ./takoform/
func BenchmarkProviderStart(b *testing.B) {
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		factory, err := New("bench", embedded.Catalog())
		if err != nil {
			b.Fatal(err)
		}
		srv, err := providerserver.NewProtocol6WithError(factory())()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTofuCycle drives the provider server the way `tofu plan` and `tofu apply`
// do, for 20 resources of 5 kinds per iteration: ValidateResourceConfig and
// PlanResourceChange for a create, ApplyResourceChange, then a refresh (ReadResource and
// a no-change PlanResourceChange), against an in-process hostsim.
//
//	go test -run '^$' -bench TofuCycle -cpuprofile cycle.out ./takoform/
func BenchmarkTofuCycle(b *testing.B) {
	sim := hostsimtest.Start(b, hostsim.Config{})
	p := testProvider(b)
	h := &harness{t: &testing.T{}, sim: sim, p: p, ctx: context.Background(), private: map[string][]byte{}}
	var err error
	if h.srv, err = providerserver.NewProtocol6WithError(p)(); err != nil {
		b.Fatal(err)
	}
	if ds := h.configure(map[string]string{"endpoint": sim.URL, "token": "sim-primary", "space": "dev"}); hasError(ds) {
		b.Fatal(dump(ds))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < 4; j++ {
			for _, k := range benchKinds {
				cfg := values{aName: s(fmt.Sprintf("c%d-%d", i, j))}
				for a, v := range k.extra {
					cfg[a] = v
				}
				pr := h.plan(k.typeName, cfg, nil)
				if hasError(pr.diags) {
					b.Fatalf("plan %s: %s", k.typeName, dump(pr.diags))
				}
				st, ds := h.apply(k.typeName, cfg, nil, pr.planned)
				if hasError(ds) {
					b.Fatalf("apply %s: %s", k.typeName, dump(ds))
				}
				st, ds = h.read(k.typeName, st)
				if hasError(ds) {
					b.Fatalf("read %s: %s", k.typeName, dump(ds))
				}
				if pr := h.plan(k.typeName, cfg, st); hasError(pr.diags) {
					b.Fatalf("re-plan %s: %s", k.typeName, dump(pr.diags))
				}
			}
		}
	}
}

// BenchmarkTofuRefresh is the refresh half of `tofu plan` over 20 existing resources:
// ValidateResourceConfig, ReadResource and a no-change PlanResourceChange each.
//
//	go test -run '^$' -bench TofuRefresh -cpuprofile refresh.out ./takoform/
func BenchmarkTofuRefresh(b *testing.B) {
	sim := hostsimtest.Start(b, hostsim.Config{})
	p := testProvider(b)
	h := &harness{t: &testing.T{}, sim: sim, p: p, ctx: context.Background(), private: map[string][]byte{}}
	var err error
	if h.srv, err = providerserver.NewProtocol6WithError(p)(); err != nil {
		b.Fatal(err)
	}
	if ds := h.configure(map[string]string{"endpoint": sim.URL, "token": "sim-primary", "space": "dev"}); hasError(ds) {
		b.Fatal(dump(ds))
	}
	type existing struct {
		typeName   string
		cfg, state values
	}
	var all []existing
	for j := 0; j < 4; j++ {
		for _, k := range benchKinds {
			cfg := values{aName: s(fmt.Sprintf("r-%d", j))}
			for a, v := range k.extra {
				cfg[a] = v
			}
			pr := h.plan(k.typeName, cfg, nil)
			st, ds := h.apply(k.typeName, cfg, nil, pr.planned)
			if hasError(pr.diags) || hasError(ds) {
				b.Fatalf("create %s: %s%s", k.typeName, dump(pr.diags), dump(ds))
			}
			all = append(all, existing{k.typeName, cfg, st})
		}
	}
	// encode once, as OpenTofu holds its values already encoded
	type wire struct {
		typeName          string
		cfg, state, prior *tfprotov6.DynamicValue
	}
	reqs := make([]wire, len(all))
	for i, e := range all {
		reqs[i] = wire{e.typeName, h.dyn(e.typeName, e.cfg), h.dyn(e.typeName, e.state), nil}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, r := range reqs {
			if vr, err := h.srv.ValidateResourceConfig(h.ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: r.typeName, Config: r.cfg}); err != nil || hasError(vr.Diagnostics) {
				b.Fatalf("validate: %v %s", err, dump(vr.Diagnostics))
			}
			rr, err := h.srv.ReadResource(h.ctx, &tfprotov6.ReadResourceRequest{TypeName: r.typeName, CurrentState: r.state})
			if err != nil || hasError(rr.Diagnostics) {
				b.Fatalf("read: %v %s", err, dump(rr.Diagnostics))
			}
			pr, err := h.srv.PlanResourceChange(h.ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: r.typeName,
				PriorState: rr.NewState, ProposedNewState: rr.NewState, Config: r.cfg})
			if err != nil || hasError(pr.Diagnostics) {
				b.Fatalf("plan: %v %s", err, dump(pr.Diagnostics))
			}
		}
	}
}
