package lifecycle_test

// The order of checks (docs/protocol.md#order) from where Engine.Decide
// starts, driven by datadriven scripts in testdata/order: each script sets up
// what the store holds and which faults are armed, asks a decision, and reads
// the verdict — the refusal that wins, or what the mutation would leave, and
// the faults the decision acted on. Update the expectations after a deliberate
// change with `go test ./internal/lifecycle -run TestDecideOrder -rewrite`
// (datadriven's flag) and read the diff.
//
// Commands:
//
//	host [profile=NAME]          a fresh store and engine under a built-in profile, or the
//	                             profile JSON of the input; faults disarmed
//	resource kind=K name=N [version=V] [gen=G] [rev=R] [uid=U] [claim=OP] [native=ID]
//	                             stores a resource as it is (spec: the input, else K's fixture)
//	faults                       arms the faults of the input, one in text form a line
//	                             (docs/protocol.md#faults); an empty input disarms
//	apply|import kind=K name=N [version=V] [create] [fence=G] [if-match=R] [expected-uid=U]
//	       [digest=(other, unminted, expired)] [native=ID] [commit[=UID]] [store]
//	                             gates the input (else the fixture) and decides; commit decides
//	                             it again as the commit of a 202 (bound to UID; none for a
//	                             create); store commits a passing decision through the engine
//	delete kind=K name=N fence=G [version=V] [if-match=R] [commit=UID]
//	                             decides a delete (commit: the re-check of an accepted one)
//	observe kind=K name=N fence=G [if-match=R]
//
// A verdict is "refused CODE[/HOSTCODE]: MESSAGE" or what passed, then
// "fired: NAME ..." when the decision acted on a fault.

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

const tenant, space = "tenant-a", "prod"

var now = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func TestDecideOrder(t *testing.T) {
	datadriven.Walk(t, "testdata/order", func(t *testing.T, path string) {
		w := &world{t: t}
		w.host("full", nil)
		t.Cleanup(w.close)
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			w.t = t
			return w.run(d)
		})
	})
}

func (w *world) run(d *datadriven.TestData) string {
	switch d.Cmd {
	case "host":
		name := "full"
		d.MaybeScanArgs(w.t, "profile", &name)
		var data []byte
		if strings.TrimSpace(d.Input) != "" {
			data = []byte(d.Input)
		}
		w.host(name, data)
		return "ok"
	case "resource":
		return w.resource(d)
	case "faults":
		w.faults = nil
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			if line = strings.TrimSpace(line); line == "" {
				continue
			}
			s, err := fault.ParseText(line)
			if err != nil {
				d.Fatalf(w.t, "%v", err)
			}
			w.faults = append(w.faults, s)
		}
		return fmt.Sprintf("%d armed", len(w.faults))
	case "apply", "import":
		return w.mutation(d)
	case "delete":
		return w.deletion(d)
	case "observe":
		return w.observe(d)
	}
	d.Fatalf(w.t, "unknown command %s", d.Cmd)
	return ""
}

func (w *world) mutation(d *datadriven.TestData) string {
	f := w.form(d)
	m := &decide.Mutation{Action: d.Cmd, Tenant: tenant, Principal: "alice", Ref: f.Ref, Space: space, Spec: w.spec(d, f)}
	d.ScanArgs(w.t, "name", &m.Name)
	m.IfNoneMatch = d.HasArg("create")
	d.MaybeScanArgs(w.t, "fence", &m.Fence)
	d.MaybeScanArgs(w.t, "if-match", &m.IfMatch)
	var expected string
	if d.MaybeScanArgs(w.t, "expected-uid", &expected) {
		m.ExpectedUID = &expected
	}
	d.MaybeScanArgs(w.t, "native", &m.NativeID)
	atCommit := commitOf(d, &m.TargetUID)
	fs := w.set(f.Ref.Kind, m.Name, d.Cmd)
	var g *decide.Gated
	if !atCommit { // the lane gates the spec before it decides; a commit gates it again itself
		var e *wire.Error
		if g, e = w.en.Gate(f, m.Spec, m.Action, fs); e != nil {
			return verdict(e, fs, "")
		}
		if d.Cmd == "apply" {
			m.PrepareDigest = w.digest(d, m, g)
		}
	}
	var out string
	w.decided(d.HasArg("store"), func(q store.Q) error {
		o, e := w.en.Decide(q, m, g, atCommit, d.Cmd, fs)
		if e != nil {
			out = verdict(e, fs, "")
			return errRolledBack
		}
		passed := fmt.Sprintf("changes %s %q to generation %d revision %d", o.Next.Kind, o.Next.Name, o.Next.Generation, o.Next.Revision)
		switch {
		case !o.Changed():
			passed = fmt.Sprintf("leaves %s %q as it is, at generation %d revision %d", o.Next.Kind, o.Next.Name, o.Next.Generation, o.Next.Revision)
		case o.Created:
			passed = fmt.Sprintf("creates %s %q at generation 1 revision 1", o.Next.Kind, o.Next.Name)
		}
		if o.Next.NativeID != "" {
			passed += " claiming " + o.Next.NativeID
		}
		out = verdict(nil, fs, passed)
		if d.HasArg("store") {
			_, err := w.en.Commit(q, o, fs)
			return err
		}
		return nil
	})
	return out
}

// commitOf reports whether the command decides the commit of a 202 (commit,
// or commit=UID: the uid the 202 bound) and sets *target.
func commitOf(d *datadriven.TestData, target *string) bool {
	arg, ok := d.Arg("commit")
	if ok && len(arg.Vals) > 0 {
		*target = arg.Vals[0]
	}
	return ok
}

// digest is the review.prepareDigest the apply sends: by default the binding
// of the request as it resolves now, minted now. digest=(...) changes it:
// other binds another name, unminted is never minted, expired was minted 16
// minutes ago.
func (w *world) digest(d *datadriven.TestData, m *decide.Mutation, g *decide.Gated) string {
	how := map[string]bool{}
	if arg, ok := d.Arg("digest"); ok {
		for _, v := range arg.Vals {
			if v != "other" && v != "unminted" && v != "expired" {
				d.Fatalf(w.t, "digest=%s: use other, unminted or expired", v)
			}
			how[v] = true
		}
	}
	uid, gen, name := "", "0", m.Name
	w.decided(false, func(q store.Q) error {
		cur, err := store.GetResource(q, tenant, space, m.Ref.APIVersion, m.Ref.Kind, m.Name)
		if cur != nil && !m.IfNoneMatch {
			uid, gen = cur.UID, strconv.FormatInt(cur.Generation, 10)
		}
		return err
	})
	at := now
	if how["expired"] {
		at = now.Add(-16 * time.Minute)
	}
	if how["other"] {
		name += "-other"
	}
	digest := decide.PrepareBinding(g.Digest, m.Ref, name, tenant, space, uid, gen)
	if !how["unminted"] {
		w.write(func(q store.Q) error { return store.MintPrepare(q, digest, tenant, at.Unix()) })
	}
	return digest
}

func (w *world) deletion(d *datadriven.TestData) string {
	f := w.form(d)
	del := &decide.Deletion{Tenant: tenant, Space: space, Ref: f.Ref}
	d.ScanArgs(w.t, "name", &del.Name)
	d.ScanArgs(w.t, "fence", &del.Fence)
	d.MaybeScanArgs(w.t, "if-match", &del.IfMatch)
	atCommit := commitOf(d, &del.TargetUID)
	fs := w.set(f.Ref.Kind, del.Name, "delete")
	var out string
	w.decided(false, func(q store.Q) error {
		cur, e := w.en.DecideDelete(q, del, atCommit, "delete", fs)
		out = verdict(e, fs, "")
		if e == nil {
			out = verdict(nil, fs, fmt.Sprintf("deletes %s %q uid %s", cur.Kind, cur.Name, cur.UID))
		}
		return nil
	})
	return out
}

func (w *world) observe(d *datadriven.TestData) string {
	f := w.form(d)
	var name string
	var pre decide.Preconditions
	d.ScanArgs(w.t, "name", &name)
	d.ScanArgs(w.t, "fence", &pre.Fence)
	d.MaybeScanArgs(w.t, "if-match", &pre.IfMatch)
	fs := w.set(f.Ref.Kind, name, "observe")
	var out string
	w.decided(false, func(q store.Q) error {
		cur, err := store.GetResource(q, tenant, space, f.Ref.APIVersion, f.Ref.Kind, name)
		if err != nil || cur == nil {
			d.Fatalf(w.t, "observe needs a stored %s %q: %v", f.Ref.Kind, name, err)
		}
		out = verdict(w.en.Observe(q, f, cur, pre, false, fs), fs, fmt.Sprintf("observes %s %q", cur.Kind, cur.Name))
		return nil
	})
	return out
}

// verdict is a refusal, or what passed, and the faults the decision acted on.
func verdict(e *wire.Error, fs *fault.Set, passed string) string {
	out := passed
	if e != nil {
		code := string(e.Code)
		if e.HostCode != "" {
			code += "/" + e.HostCode
		}
		out = "refused " + code + ": " + e.Message
		if f := decide.Field(e); f != "" {
			out += " (field " + f + ")"
		}
	}
	if fired := fs.Firings(); len(fired) > 0 {
		out += "\nfired: " + strings.Join(fired, " ")
	}
	return out
}
