package rules

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

func wv(i int, name, uid string, weight int64, handlers ...string) WeightedVersion {
	return WeightedVersion{Pointer: "/versions/" + string(rune('0'+i)) + "/workerVersion", Name: name, UID: uid,
		Weight: weight, WorkerUID: "u-w", Handlers: handlers, Ready: true}
}

func TestCheckDeployment(t *testing.T) {
	base := func() DeploymentFacts {
		return DeploymentFacts{WorkerPointer: "/worker", WorkerName: "api", WorkerUID: "u-w",
			Versions: []WeightedVersion{wv(0, "v1", "u-1", 6000, "fetch"), wv(1, "v2", "u-2", 4000, "fetch")}}
	}
	if r := CheckDeployment(base()); r != nil {
		t.Fatalf("valid deployment refused: %v", r)
	}
	cases := []struct {
		name   string
		mutate func(*DeploymentFacts)
		ptr    string
		says   []string
	}{
		{"second deployment for the worker", func(f *DeploymentFacts) { f.OtherDeployment = "main" }, "/worker", []string{`already has deployment "main"`}},
		{"single-deployment rule wins over weights", func(f *DeploymentFacts) { f.OtherDeployment = "main"; f.Versions[0].Weight = 1 }, "/worker", []string{"at most one"}},
		{"version of another worker", func(f *DeploymentFacts) { f.Versions[1].WorkerUID = "u-other" }, "/versions/1/workerVersion", []string{`"v2"`, "u-other", "another worker"}},
		{"same version twice", func(f *DeploymentFacts) { f.Versions[1].UID = "u-1"; f.Versions[1].Weight = 4000 }, "/versions/1/workerVersion", []string{"already weighted at /versions/0/workerVersion"}},
		{"duplicate wins over weight sum", func(f *DeploymentFacts) { f.Versions[1].UID = "u-1"; f.Versions[1].Weight = 1 }, "/versions/1/workerVersion", []string{"weight each version once"}},
		{"weights short of 10000", func(f *DeploymentFacts) { f.Versions[1].Weight = 3999 }, "/versions", []string{"6000+3999", "9999", "exactly 10000"}},
		{"weights over 10000", func(f *DeploymentFacts) { f.Versions[1].Weight = 4001 }, "/versions", []string{"10001"}},
		{"weight zero", func(f *DeploymentFacts) { f.Versions[0].Weight = 0 }, "/versions/0/weight", []string{"weight 0", "1..10000"}},
		{"weight over max", func(f *DeploymentFacts) { f.Versions[0].Weight = 10001 }, "/versions/0/weight", []string{"outside 1..10000"}},
		{"no versions", func(f *DeploymentFacts) { f.Versions = nil }, "/versions", []string{"got 0"}},
		{"nine versions", func(f *DeploymentFacts) {
			f.Versions = nil
			for i := 0; i < 9; i++ {
				f.Versions = append(f.Versions, wv(i, "v", "u-"+string(rune('a'+i)), 1000))
			}
		}, "/versions", []string{"1..8", "got 9"}},
		{"version not ready", func(f *DeploymentFacts) { f.Versions[1].Ready = false }, "/versions/1/workerVersion", []string{"not Ready=True"}},
		{"version being deleted", func(f *DeploymentFacts) { f.Versions[0].Deleting = true }, "/versions/0/workerVersion", []string{"being deleted"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := base()
			c.mutate(&f)
			r := CheckDeployment(f)
			if r == nil || r.Code != wire.CodeInvalidArgument || r.Pointer != c.ptr || !strings.HasPrefix(r.Message, c.ptr+":") {
				t.Fatalf("refusal = %+v, want invalid_argument at %s", r, c.ptr)
			}
			for _, s := range c.says {
				if !strings.Contains(r.Message, s) {
					t.Errorf("message %q lacks %q", r.Message, s)
				}
			}
		})
	}
	// The least weight is 1: a version weighted 1 beside one of 9999 is fine.
	least := base()
	least.Versions[0].Weight, least.Versions[1].Weight = 1, 9999
	if r := CheckDeployment(least); r != nil {
		t.Fatalf("weights 1 and 9999 refused: %v", r)
	}
	// A single version of weight 10000 is fine; eight of 1250 are fine.
	one := base()
	one.Versions = []WeightedVersion{wv(0, "v1", "u-1", 10000)}
	if r := CheckDeployment(one); r != nil {
		t.Fatal(r)
	}
	eight := base()
	eight.Versions = nil
	for i := 0; i < 8; i++ {
		eight.Versions = append(eight.Versions, wv(i, "v", "u-"+string(rune('a'+i)), 1250))
	}
	if r := CheckDeployment(eight); r != nil {
		t.Fatal(r)
	}
}

func TestAttachmentGateAndReadiness(t *testing.T) {
	r := AttachmentGate("/worker", "api", "scheduled", nil)
	if r == nil || r.Code != wire.CodeUnsupportedCapability || r.Pointer != "/worker" || !strings.Contains(r.Message, "no active deployment") {
		t.Fatalf("no deployment: %+v", r)
	}
	active := &ActiveDeployment{Name: "main", Versions: []WeightedVersion{wv(0, "v1", "u-1", 5000, "fetch", "scheduled"), wv(1, "v2", "u-2", 5000, "fetch")}}
	if r := AttachmentGate("/worker", "api", "fetch", active); r != nil {
		t.Fatalf("fetch served by every version: %v", r)
	}
	r = AttachmentGate("/worker", "api", "scheduled", active)
	if r == nil || r.Code != wire.CodeUnsupportedCapability || !strings.Contains(r.Message, `"v2"`) || strings.Contains(r.Message, `"v1"`) {
		t.Fatalf("one version lacks scheduled: %+v", r)
	}

	// Both not-ready hostReasons name the worker and what is missing (docs/protocol.md#aggregate).
	if got := WorkerReadiness("api", nil); got.Ready || got.Reason != "Provisioning" || got.HostReason != `no-active-deployment worker "api"` {
		t.Errorf("no deployment: %+v", got)
	}
	if got := WorkerReadiness("api", active); !got.Ready || got.Reason != "Available" || got.HostReason != "" {
		t.Errorf("serving fetch: %+v", got)
	}
	lacks := &ActiveDeployment{Name: "main", Versions: []WeightedVersion{wv(0, "v1", "u-1", 10000, "queue")}}
	if got := WorkerReadiness("api", lacks); got.Ready || got.Reason != "UnsupportedCapability" ||
		got.HostReason != `deployment-lacks-fetch worker "api" deployment "main" versions "v1"` || !strings.Contains(got.Message, `"v1"`) {
		t.Errorf("lacking fetch: %+v", got)
	}
	long := strings.Repeat("w", 300)
	if got := WorkerReadiness(long, nil); len(got.HostReason) != MaxHostReason || !strings.HasPrefix(got.HostReason, "no-active-deployment worker") {
		t.Errorf("a hostReason is at most %d bytes: %d", MaxHostReason, len(got.HostReason))
	}
}

func TestReverseGateAndDeleteGate(t *testing.T) {
	deps := []Dependent{
		{Kind: "Cron", Name: "nightly", Handler: "scheduled", Pointer: "/worker"},
		{Kind: "Caller", Name: "front-v1", Handler: "fetch", Pointer: "/serviceBindings/0/resource"},
	}
	keep := []WeightedVersion{wv(0, "v3", "u-3", 10000, "fetch", "scheduled")}
	if r := ReverseGate("/versions", "api", keep, deps); r != nil {
		t.Fatalf("a change serving all dependents refused: %v", r)
	}
	drop := []WeightedVersion{wv(0, "v3", "u-3", 5000, "fetch", "scheduled"), wv(1, "v4", "u-4", 5000, "fetch")}
	r := ReverseGate("/versions", "api", drop, deps)
	if r == nil || r.Code != wire.CodeUnsupportedCapability || r.Pointer != "/versions" ||
		!strings.Contains(r.Message, `Cron "nightly"`) || strings.Contains(r.Message, "front-v1") {
		t.Fatalf("re-weighting that drops scheduled: %+v", r)
	}
	if r := ReverseGate("/versions", "api", drop, nil); r != nil {
		t.Fatalf("no dependents: %v", r)
	}

	if r := DeploymentDeleteGate("main", "api", nil); r != nil {
		t.Fatalf("no dependents: %v", r)
	}
	r = DeploymentDeleteGate("main", "api", deps)
	if r == nil || r.Code != wire.CodeDependencyInUse || !strings.Contains(r.Message, `Cron "nightly"`) || !strings.Contains(r.Message, `Caller "front-v1" (/serviceBindings/0/resource`) {
		t.Fatalf("delete with dependents: %+v", r)
	}
}
