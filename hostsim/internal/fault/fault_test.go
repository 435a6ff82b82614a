package fault

import (
	"strings"
	"testing"
)

// The table is data: each entry is named, staged, described and parseable.
func TestTableEntriesAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Table {
		if d.Name == "" || d.Stage == "" || d.Effect == "" {
			t.Errorf("incomplete fault entry %+v", d)
		}
		if seen[d.Name] {
			t.Errorf("fault %s listed twice", d.Name)
		}
		seen[d.Name] = true
		if d.ValueRequired && d.Value == nil {
			t.Errorf("fault %s requires a value but has no value check", d.Name)
		}
	}
	for _, name := range []string{"outputs.omit", "outputs.wrong-type", "outputs.extra", "outputs.empty-when-undeclared",
		"apply.accept-unfinished", "response.drop-after-commit", "latency", "error"} {
		if !seen[name] {
			t.Errorf("fault %s of docs/protocol.md#faults is missing", name)
		}
	}
}

func TestTextFormRoundTrips(t *testing.T) {
	for _, text := range []string{"outputs.omit=url,kind=WorkerEndpoint,count=1", "latency=250ms", "error=rate_limited,resource=orders",
		"apply.accept-unfinished", "outputs.empty-when-undeclared,kind=EdgeKVNamespace,resource=cache,count=3"} {
		s, err := ParseText(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if s.Text() != text {
			t.Fatalf("round trip %q -> %q", text, s.Text())
		}
		j, err := ParseJSON(s.JSON())
		if err != nil || j != s {
			t.Fatalf("JSON round trip of %q: %+v %v", text, j, err)
		}
	}
	// a fault that needs a value says what the value does and how to give it
	if _, err := ParseJSON([]byte(`{"fault":"latency"}`)); err == nil || err.Error() != `fault latency needs a value, which it uses so: adds value (a duration) to every matching request (latency=VALUE, or "value" in a fault object; docs/protocol.md#faults)` {
		t.Errorf("latency without a value: %v", err)
	}
	for text, want := range map[string]string{
		"nope": "unknown", "latency": "needs a value", "latency=soon": "duration", "error=teapot": "error codes",
		"apply.accept-unfinished=1": "takes no value", "outputs.omit,count=0": "positive", "outputs.omit,kind=lower": "kind",
		"outputs.omit,resource=Bad": "resource", "outputs.omit,flavour=x": "unknown key", "outputs.omit,kind": "key=value",
		"outputs.omit,route=apply-ish": "not a route",
	} {
		if _, err := ParseText(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one mentioning %q", text, err, want)
		}
	}
}

func TestScopeMatching(t *testing.T) {
	s := Spec{Fault: "latency", Kind: "A", Resource: "r"}
	if !s.Matches("A", "r", "read") || s.Matches("B", "r", "read") || s.Matches("A", "x", "read") || !(Spec{Fault: "latency"}).Matches("Z", "z", "apply") {
		t.Fatal("scope matching is wrong")
	}
	byRoute := Spec{Fault: "outputs.drop-all", Route: "apply"}
	if !byRoute.Matches("A", "r", "apply") || byRoute.Matches("A", "r", "read") {
		t.Fatal("route scope matching is wrong")
	}
	if sp, err := ParseText("outputs.drop-all,route=apply,kind=A"); err != nil || sp.Route != "apply" || sp.Text() != "outputs.drop-all,kind=A,route=apply" {
		t.Fatalf("route in the text form: %+v %v", sp, err)
	}
}

// TestAnUnknownFaultSaysWhatToWrite: a fault object naming no fault is refused
// with what to write instead, never with the whole table: the text form put in
// "fault" gets the object it stands for (or what is wrong with it as text), an
// unknown name of a known group the faults of that group, any other name the
// groups.
func TestAnUnknownFaultSaysWhatToWrite(t *testing.T) {
	for _, c := range []struct{ body, want, not string }{
		{`{"fault":"store.fail=1,route=apply,count=2"}`, `fault "store.fail=1,route=apply,count=2" is the text form, which a fault object does not take: write {"fault":"store.fail","route":"apply","count":2,"value":"1"}`, ""},
		{`{"fault":"store.fail=1,count=x"}`, `fault "store.fail=1,count=x" is the text form, and as such: fault "store.fail=1,count=x": count "x" is not a positive integer`, ""},
		{`{"fault":"store.fial"}`, `fault "store.fial" is unknown (did you mean "store.fail"?); the faults of store are store.fail, store.read-fail (every fault: docs/protocol.md#faults)`, ""},
		{`{"fault":"nosuch.fault"}`, `fault "nosuch.fault" is unknown, and so is its group "nosuch"; the groups are `, "outputs.omit"},
		{`{"fault":"fence.ignore,route"}`, `fault "fence.ignore,route" is the text form, and as such: fault "fence.ignore,route": "route" is not key=value`, ""},
		{`{"fault":"apply.accept-unfinishd"}`, `the faults of apply are apply.accept-unfinished (every fault`, ""},
		{`{"fault":"fence.ingore"}`, `fault "fence.ingore" is unknown (did you mean "fence.ignore"?); the faults of fence are fence.ignore, fence.refusal-writes`, ""},
		{`{"fault":"fenc.ignore"}`, `fault "fenc.ignore" is unknown (did you mean "fence.ignore"?), and so is its group "fenc"`, ""},
	} {
		_, err := ParseJSON([]byte(c.body))
		if err == nil || !strings.Contains(err.Error(), c.want) || (c.not != "" && strings.Contains(err.Error(), c.not)) {
			t.Errorf("%s: %v\nwant it to say %s", c.body, err, c.want)
		}
	}
	if _, err := ParseJSON([]byte(`{"fault":"nosuch.fault"}`)); err == nil || !strings.Contains(err.Error(), "the groups are aggregate, apply, artifacts, assets, attachment, auth,") {
		t.Errorf("an unknown group: %v; want the groups listed in order, each once", err)
	}
}
