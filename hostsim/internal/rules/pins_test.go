package rules

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

func TestEvaluateDrift(t *testing.T) {
	pinA := Pin{Pointer: "/owner", Relation: "/owner", TargetAPIVersion: grp, TargetKind: "Owner", TargetName: "api", TargetUID: "u-1", TargetFormRef: ownerRef}
	pinB := Pin{Pointer: "/stores/0/resource", Relation: "/stores/*/resource", TargetAPIVersion: grp, TargetKind: "Store", TargetName: "cache", TargetUID: "u-2", TargetFormRef: storeRef}
	same := func(p Pin) *Target {
		return &Target{Found: true, APIVersion: p.TargetAPIVersion, Kind: p.TargetKind, Name: p.TargetName, UID: p.TargetUID, FormRef: p.TargetFormRef}
	}
	newUID := func(p Pin) *Target { c := same(p); c.UID = "u-9"; return c }
	newRef := func(p Pin) *Target { c := same(p); c.FormRef.DefinitionVersion = "0.2.0"; return c }

	if d := EvaluateDrift([]PinState{{pinA, same(pinA)}, {pinB, same(pinB)}}); d.Drifted {
		t.Fatalf("undrifted pins render drift: %+v", d)
	}
	if d := EvaluateDrift(nil); d.Drifted {
		t.Fatalf("no pins render drift: %+v", d)
	}
	d := EvaluateDrift([]PinState{{pinA, newUID(pinA)}, {pinB, same(pinB)}})
	if !d.Drifted || d.Reason != "ExternalChange" || d.HostReason != "relation-target-replaced /owner pinned u-1 now u-9" ||
		!strings.Contains(d.Message, `relation /owner: pinned Owner "api" uid u-1 (`+refText(ownerRef)+`) is now uid u-9`) {
		t.Fatalf("replaced uid: %+v", d)
	}
	d = EvaluateDrift([]PinState{{pinA, newRef(pinA)}})
	if d.Reason != ReasonExternalChange || !strings.Contains(d.Message, "0.2.0") || d.HostReason != "relation-target-replaced /owner pinned u-1 now u-1" {
		t.Fatalf("replaced FormRef: %+v", d)
	}
	d = EvaluateDrift([]PinState{{pinA, newUID(pinA)}, {pinB, nil}})
	if d.Reason != "DependencyMissing" || d.HostReason != "relation-target-missing /stores/0/resource pinned u-2 now none" ||
		!strings.Contains(d.Message, "relation /stores/0/resource: pinned Store \"cache\" uid u-2") ||
		!strings.Contains(d.Message, "no longer exists") || !strings.Contains(d.Message, "is now uid u-9") {
		t.Fatalf("missing wins and both are listed: %+v", d)
	}
	d = EvaluateDrift([]PinState{{pinB, &Target{}}})
	if d.Reason != ReasonDependencyMissing {
		t.Fatalf("a not-found current target is missing: %+v", d)
	}
	var many []PinState
	for i := 0; i < 200; i++ {
		many = append(many, PinState{pinB, nil})
	}
	if d := EvaluateDrift(many); len(d.Message) > MaxMessage {
		t.Fatalf("message is %d bytes, over %d", len(d.Message), MaxMessage)
	}
}

func TestDependencyInUse(t *testing.T) {
	if DependencyInUse(`Store "cache"`, nil) != nil {
		t.Fatal("no holders must not refuse")
	}
	r := DependencyInUse(`Store "cache"`, []Holder{{"Consumer", "v1", "/stores/0/resource"}, {"Consumer", "v2", "/backup"}})
	if r == nil || r.Code != wire.CodeDependencyInUse {
		t.Fatalf("refusal = %+v", r)
	}
	for _, s := range []string{`Store "cache"`, `Consumer "v1" at /stores/0/resource`, `Consumer "v2" at /backup`} {
		if !strings.Contains(r.Message, s) {
			t.Errorf("message %q lacks %q", r.Message, s)
		}
	}
	var hs []Holder
	for i := 0; i < 500; i++ {
		hs = append(hs, Holder{"Consumer", strings.Repeat("x", 40), "/stores/0/resource"})
	}
	if r := DependencyInUse("T", hs); len(r.Message) > MaxMessage || !strings.Contains(r.Message, "more") {
		t.Fatalf("long holder list: %d bytes", len(r.Message))
	}
}

// Of several drifted pins, the hostReason names the first missing target (a
// missing one wins) or, when none is missing, the first replaced one; the
// message lists every one.
func TestDriftHostReasonNamesTheFirstDriftedPin(t *testing.T) {
	pinA := Pin{Pointer: "/owner", TargetKind: "Owner", TargetName: "api", TargetUID: "u-1", TargetFormRef: ownerRef}
	pinB := Pin{Pointer: "/backup", TargetKind: "Store", TargetName: "cache", TargetUID: "u-2", TargetFormRef: storeRef}
	moved := func(p Pin) *Target {
		return &Target{Found: true, Kind: p.TargetKind, Name: p.TargetName, UID: p.TargetUID + "-new", FormRef: p.TargetFormRef}
	}
	d := EvaluateDrift([]PinState{{pinA, nil}, {pinB, nil}})
	if d.HostReason != "relation-target-missing /owner pinned u-1 now none" || strings.Count(d.Message, "no longer exists") != 2 {
		t.Errorf("two missing targets: hostReason %q, message %q; want the first (/owner) named, both listed", d.HostReason, d.Message)
	}
	d = EvaluateDrift([]PinState{{pinA, moved(pinA)}, {pinB, moved(pinB)}})
	if d.HostReason != "relation-target-replaced /owner pinned u-1 now u-1-new" || strings.Count(d.Message, "is now uid") != 2 {
		t.Errorf("two replaced targets: hostReason %q, message %q; want the first (/owner) named, both listed", d.HostReason, d.Message)
	}
}
