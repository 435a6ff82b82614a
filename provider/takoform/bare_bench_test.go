package takoform

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-log/tfsdklog"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/provider/internal/bare"
)

// BenchmarkPlanVsBare asks of takokit and of the bare yardstick (provider/internal/bare,
// serving takokit's own schemas) what `tofu plan` asks of its provider processes for
// 200 resources (40 of each of 5 kinds), in one process and without OpenTofu, so that
// a CPU profile separates takokit's own work from the framework's (it reports the CPU of
// the whole process per iteration, and the log lines a provider would send OpenTofu):
//
//	create:  a schema process (GetProviderSchema); a validate process
//	         (ValidateResourceConfig ×200); a plan process (ConfigureProvider, then
//	         ValidateResourceConfig and PlanResourceChange ×200, ten at a time)
//	refresh: the same, where the plan process runs UpgradeResourceState, ReadResource,
//	         ValidateResourceConfig and PlanResourceChange for each existing resource
//
// Each process gets a fresh provider server, so takokit's support cache starts empty as
// it does in a new process; the start of a process is BenchmarkProviderStart's. Every
// call carries the SDK and provider loggers a provider process has (level TRACE, JSON
// lines to a pipe, as to OpenTofu), since the framework logs around every validator,
// plan modifier and resource method it calls. The host is an in-process hostsim, so its
// CPU is inside takokit's refresh figure.
//
//	go test -run '^$' -bench PlanVsBare -cpuprofile vs.out ./takoform/
func BenchmarkPlanVsBare(b *testing.B) {
	sim := hostsimtest.Start(b, hostsim.Config{})
	p := testProvider(b)
	f, err := bare.Capture(context.Background(), func() fwprovider.Provider { return p })
	if err != nil {
		b.Fatal(err)
	}
	bareFactory, err := bare.New(TypeName, f)
	if err != nil {
		b.Fatal(err)
	}
	servers := map[string]func() (tfprotov6.ProviderServer, error){
		"takokit": providerserver.NewProtocol6WithError(p),
		"bare":    providerserver.NewProtocol6WithError(bareFactory()),
	}
	ctx, logLines := benchLogContext(b)
	creates := benchCreates(b, p)
	var existing []benchResource // created on the host when a refresh case first runs
	for _, op := range []string{"create", "refresh"} {
		for _, who := range []string{"takokit", "bare"} {
			newSrv := func() tfprotov6.ProviderServer {
				srv, err := servers[who]()
				if err != nil {
					b.Fatal(err)
				}
				return srv
			}
			b.Run(op+"/"+who, func(b *testing.B) {
				if op == "refresh" && existing == nil {
					existing = benchExisting(b, p, sim.URL, creates)
					b.ResetTimer()
				}
				cpu, lines := processCPU(), logLines.Load()
				defer func() {
					b.ReportMetric(float64((processCPU()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
					b.ReportMetric(float64(logLines.Load()-lines)/float64(b.N), "log-lines/op")
				}()
				for i := 0; i < b.N; i++ {
					if _, err := newSrv().GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
						b.Fatal(err)
					}
					benchEach(ctx, b, newSrv(), creates, benchValidate)
					plan := newSrv()
					benchConfigureServer(b, plan, sim.URL)
					if op == "create" {
						benchEach(ctx, b, plan, creates, benchPlanCreate)
					} else {
						benchEach(ctx, b, plan, existing, benchPlanRefresh)
					}
				}
			})
		}
	}
}

// processCPU is the CPU this process has used (every goroutine, the collector's too).
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchResource is one resource as OpenTofu holds it: its configuration, and for an
// existing one its state as JSON (what UpgradeResourceState gets) and the proposed new
// state of a plan that changes nothing.
type benchResource struct {
	typeName  string
	config    *tfprotov6.DynamicValue
	stateJSON []byte
	proposed  *tfprotov6.DynamicValue
}

func benchCreates(tb testing.TB, p *Provider) []benchResource {
	var out []benchResource
	for i := 0; i < 200/len(benchKinds); i++ {
		for _, k := range benchKinds {
			cfg := values{aName: s(fmt.Sprintf("r-%d", i))}
			for a, v := range k.extra {
				cfg[a] = v
			}
			out = append(out, benchResource{typeName: k.typeName, config: benchDyn(tb, kindByType(tb, p, k.typeName), cfg)})
		}
	}
	return out
}

// benchExisting creates every resource of creates on the host and returns them as
// existing resources.
func benchExisting(tb testing.TB, p *Provider, url string, creates []benchResource) []benchResource {
	h := &harness{t: &testing.T{}, p: p, ctx: context.Background(), private: map[string][]byte{}}
	srv, err := providerserver.NewProtocol6WithError(p)()
	if err != nil {
		tb.Fatal(err)
	}
	h.srv = srv
	benchConfigureServer(tb, srv, url)
	out := make([]benchResource, len(creates))
	for i, c := range creates {
		kt := kindByType(tb, p, c.typeName)
		raw, err := c.config.Unmarshal(kt.objectType.TerraformType(h.ctx))
		if err != nil {
			tb.Fatal(err)
		}
		cfg, err := readValues(h.ctx, kt.objectType, raw)
		if err != nil {
			tb.Fatal(err)
		}
		pr := h.plan(c.typeName, cfg, nil)
		st, ds := h.apply(c.typeName, cfg, nil, pr.planned)
		if hasError(pr.diags) || hasError(ds) {
			tb.Fatalf("create %s: %s%s", c.typeName, dump(pr.diags), dump(ds))
		}
		stRaw, err := st.raw(h.ctx, kt.objectType)
		if err != nil {
			tb.Fatal(err)
		}
		js, err := json.Marshal(tfJSON(stRaw))
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = benchResource{typeName: c.typeName, config: c.config, stateJSON: js, proposed: h.dyn(c.typeName, h.proposed(c.typeName, cfg, st))}
	}
	return out
}

// tfJSON is v in the JSON form of a state file.
func tfJSON(v tftypes.Value) any {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case v.Type().Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	case v.Type().Is(tftypes.Number):
		n := new(big.Float)
		_ = v.As(&n)
		return json.Number(n.Text('f', -1))
	case v.Type().Is(tftypes.List{}), v.Type().Is(tftypes.Set{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		out := make([]any, len(elems))
		for i, e := range elems {
			out[i] = tfJSON(e)
		}
		return out
	}
	var members map[string]tftypes.Value
	_ = v.As(&members)
	out := map[string]any{}
	for k, m := range members {
		out[k] = tfJSON(m)
	}
	return out
}

// benchConfigureServer configures srv as the plan process of `tofu plan` does.
func benchConfigureServer(tb testing.TB, srv tfprotov6.ProviderServer, url string) {
	typ := providerConfigType()
	cfg, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, map[string]tftypes.Value{
		"endpoint": tftypes.NewValue(tftypes.String, url), "space": tftypes.NewValue(tftypes.String, "dev"),
		"token": tftypes.NewValue(tftypes.String, "sim-primary"), "require_support_surface": tftypes.NewValue(tftypes.Bool, nil)}))
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := srv.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{Config: &cfg})
	if err != nil || hasError(resp.Diagnostics) {
		tb.Fatalf("configure: %v %s", err, dump(resp.Diagnostics))
	}
}

// benchLogContext carries the loggers terraform-plugin-go gives every request of a
// provider process (TRACE unless TF_LOG_SDK* say otherwise, JSON with the caller's
// location), writing to a pipe that is drained (and its lines counted) as OpenTofu
// drains the provider's stderr.
func benchLogContext(tb testing.TB) (context.Context, *atomic.Int64) {
	r, w, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	lines := new(atomic.Int64)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := r.Read(buf)
			lines.Add(int64(bytes.Count(buf[:n], []byte{'\n'})))
			if err != nil {
				return
			}
		}
	}()
	// the loggers write to the process's stderr, as in a provider process: fd 2 becomes
	// the pipe while the benchmark runs
	saved, err := syscall.Dup(2)
	if err != nil {
		tb.Fatal(err)
	}
	if err := syscall.Dup2(int(w.Fd()), 2); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = syscall.Dup2(saved, 2); _ = w.Close() })
	ctx := tfsdklog.NewRootSDKLogger(context.Background(), tfsdklog.WithLevelFromEnv("TF_LOG_SDK"))
	ctx = tfsdklog.NewSubsystem(ctx, "proto", tfsdklog.WithAdditionalLocationOffset(1), tfsdklog.WithLevelFromEnv("TF_LOG_SDK_PROTO"))
	return tfsdklog.NewRootProviderLogger(ctx, tfsdklog.WithLogName("takoform"), tflog.WithLevelFromEnv("TF_LOG_PROVIDER", "takoform")), lines
}

// benchEach runs fn over every resource, ten at a time (OpenTofu's parallelism).
func benchEach(ctx context.Context, tb testing.TB, srv tfprotov6.ProviderServer, rs []benchResource, fn func(context.Context, tfprotov6.ProviderServer, benchResource) error) {
	jobs := make(chan benchResource)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failure error
	for w := 0; w < 10; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range jobs {
				if err := fn(ctx, srv, r); err != nil {
					mu.Lock()
					failure = err
					mu.Unlock()
				}
			}
		}()
	}
	for _, r := range rs {
		jobs <- r
	}
	close(jobs)
	wg.Wait()
	if failure != nil {
		tb.Fatal(failure)
	}
}

func benchValidate(ctx context.Context, srv tfprotov6.ProviderServer, r benchResource) error {
	resp, err := srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: r.typeName, Config: r.config})
	return benchErr("validate", r, err, resp.Diagnostics)
}

func benchPlanCreate(ctx context.Context, srv tfprotov6.ProviderServer, r benchResource) error {
	if err := benchValidate(ctx, srv, r); err != nil {
		return err
	}
	null := tfprotov6.DynamicValue{MsgPack: []byte{0xc0}}
	resp, err := srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: r.typeName, PriorState: &null, ProposedNewState: r.config, Config: r.config})
	return benchErr("plan", r, err, resp.Diagnostics)
}

func benchPlanRefresh(ctx context.Context, srv tfprotov6.ProviderServer, r benchResource) error {
	up, err := srv.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{TypeName: r.typeName, Version: SchemaVersion,
		RawState: &tfprotov6.RawState{JSON: r.stateJSON}})
	if err := benchErr("upgrade", r, err, up.Diagnostics); err != nil {
		return err
	}
	rr, err := srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: r.typeName, CurrentState: up.UpgradedState})
	if err := benchErr("read", r, err, rr.Diagnostics); err != nil {
		return err
	}
	if err := benchValidate(ctx, srv, r); err != nil {
		return err
	}
	pr, err := srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: r.typeName,
		PriorState: rr.NewState, ProposedNewState: r.proposed, Config: r.config})
	return benchErr("plan", r, err, pr.Diagnostics)
}

func benchErr(what string, r benchResource, err error, ds []*tfprotov6.Diagnostic) error {
	if err != nil || hasError(ds) {
		return fmt.Errorf("%s %s: %v %s", what, r.typeName, err, dump(ds))
	}
	return nil
}
