package decide

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/stored"
)

var refA = wire.FormRef{APIVersion: "edge.example.dev/v1", Kind: "Queue", DefinitionVersion: "0.1.0",
	SchemaDigest: "sha256:" + "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"}
var refB = wire.FormRef{APIVersion: refA.APIVersion, Kind: refA.Kind, DefinitionVersion: "0.2.0",
	SchemaDigest: "sha256:" + "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2"}

// current is a resource at generation 3, revision 5, under refA.
func current() *stored.Resource {
	return &stored.Resource{Tenant: "t", Space: "s", APIVersion: refA.APIVersion, Kind: refA.Kind, Name: "orders",
		UID: "u-1", DefVersion: refA.DefinitionVersion, SchemaDigest: refA.SchemaDigest, Generation: 3, Revision: 5}
}

// armed is Acts with each of faults armed without a count.
func armed(faults ...Fault) *Acts {
	a := &Acts{}
	for _, f := range faults {
		a.Arm(f, -1)
	}
	return a
}

func ptr(s string) *string { return &s }

func codeOf(e *wire.Error) wire.Code {
	if e == nil {
		return ""
	}
	return e.Code
}

func TestCheckCreate(t *testing.T) {
	for _, tc := range []struct {
		name        string
		cur         *stored.Resource
		expectedUID *string
		fs          *Acts
		want        wire.Code
	}{
		{name: "free name", want: ""},
		{name: "name taken", cur: current(), want: wire.CodeGenerationConflict},
		{name: "name taken, create.overwrite", cur: current(), fs: armed(CreateOverwrite), want: ""},
		{name: "expectedUid on a create", expectedUID: ptr("u-1"), want: wire.CodeUIDMismatch},
		{name: "expectedUid, uid.ignore-expected", expectedUID: ptr("u-1"), fs: armed(UIDIgnoreExpected), want: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := codeOf(CheckCreate(tc.cur, tc.expectedUID, "Queue \"orders\"", tc.fs)); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCheckChange(t *testing.T) {
	for _, tc := range []struct {
		name        string
		cur         *stored.Resource
		ref         wire.FormRef
		in          Intent
		expectedUID *string
		atCommit    bool
		fs          *Acts
		want        wire.Code
	}{
		{name: "current fences", cur: current(), ref: refA, in: Intent{Fence: 3, IfMatch: 5}},
		{name: "no If-Match", cur: current(), ref: refA, in: Intent{Fence: 3}},
		{name: "nothing holds the name", ref: refA, in: Intent{Fence: 3}, want: wire.CodeResourceNotFound},
		{name: "another definition version", cur: current(), ref: refB, in: Intent{Fence: 3}, want: wire.CodeResourceNotFound},
		{name: "expectedUid of a replaced incarnation", cur: current(), ref: refA, in: Intent{Fence: 3}, expectedUID: ptr("u-0"), want: wire.CodeUIDMismatch},
		{name: "expectedUid current", cur: current(), ref: refA, in: Intent{Fence: 3}, expectedUID: ptr("u-1")},
		{name: "stale generation", cur: current(), ref: refA, in: Intent{Fence: 2}, want: wire.CodeGenerationConflict},
		{name: "stale generation, fence.ignore", cur: current(), ref: refA, in: Intent{Fence: 2}, fs: armed(FenceIgnore)},
		{name: "stale generation at commit, commit.skip-fences", cur: current(), ref: refA, in: Intent{Fence: 2}, atCommit: true, fs: armed(CommitSkipFences)},
		{name: "commit.skip-fences off the commit path", cur: current(), ref: refA, in: Intent{Fence: 2}, fs: armed(CommitSkipFences), want: wire.CodeGenerationConflict},
		{name: "stale revision", cur: current(), ref: refA, in: Intent{Fence: 3, IfMatch: 4}, want: wire.CodeRevisionConflict},
		{name: "stale revision, ifmatch.ignore", cur: current(), ref: refA, in: Intent{Fence: 3, IfMatch: 4}, fs: armed(IfMatchIgnore)},
		{name: "stale revision at commit, commit.skip-fences", cur: current(), ref: refA, in: Intent{Fence: 3, IfMatch: 4}, atCommit: true, fs: armed(CommitSkipFences)},
		{name: "commit.skip-fences off the commit path spares no stale revision", cur: current(), ref: refA, in: Intent{Fence: 3, IfMatch: 4}, fs: armed(CommitSkipFences), want: wire.CodeRevisionConflict},
		{name: "generation is checked before revision", cur: current(), ref: refA, in: Intent{Fence: 2, IfMatch: 4}, want: wire.CodeGenerationConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := codeOf(CheckChange(tc.cur, tc.ref, tc.in, tc.expectedUID, tc.atCommit, "Queue \"orders\"", tc.fs))
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCheckDeleteFences(t *testing.T) {
	del := func(fence, ifMatch int64) *Deletion {
		return &Deletion{Tenant: "t", Space: "s", Ref: refA, Name: "orders", Fence: fence, IfMatch: ifMatch}
	}
	for _, tc := range []struct {
		name string
		d    *Deletion
		rev  int64 // the resource's revision, when not 5
		fs   *Acts
		want wire.Code
	}{
		{name: "current generation; the revision moved by rendering", d: del(3, 0)},
		{name: "current generation and revision", d: del(3, 5)},
		{name: "stale generation", d: del(2, 0), want: wire.CodeGenerationConflict},
		{name: "stale If-Match", d: del(3, 4), want: wire.CodeRevisionConflict},
		{name: "delete.revision-fenced compares the fence with the revision", d: del(3, 0), fs: armed(DeleteRevisionFenced), want: wire.CodeGenerationConflict},
		{name: "delete.revision-fenced does not act where the revision equals the fence", d: del(3, 0), rev: 3, fs: armed(DeleteRevisionFenced)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cur := current()
			if tc.rev != 0 {
				cur.Revision = tc.rev
			}
			if got := codeOf(CheckDeleteFences(cur, tc.d, false, tc.d.What(), tc.fs)); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if tc.fs != nil && tc.want == "" && tc.fs.Acted() {
				t.Fatal("a fault acted on a delete whose fences hold")
			}
		})
	}
}

func TestCheckRecordedAndCommitIdentity(t *testing.T) {
	if e := CheckRecorded(nil, refA, "x", nil); codeOf(e) != wire.CodeResourceNotFound {
		t.Fatalf("nothing recorded: %v", e)
	}
	if e := CheckRecorded(current(), refB, "x", nil); codeOf(e) != wire.CodeResourceNotFound {
		t.Fatalf("another FormRef: %v", e)
	}
	if e := CheckRecorded(current(), refB, "x", armed(FormRefAnyVersion)); e != nil {
		t.Fatalf("formref.any-version: %v", e)
	}
	for _, tc := range []struct {
		name   string
		cur    *stored.Resource
		target string
		ref    wire.FormRef
		fs     *Acts
		want   wire.Code
	}{
		{name: "a create binds no incarnation", target: "", ref: refA},
		{name: "same incarnation", cur: current(), target: "u-1", ref: refA},
		{name: "gone", target: "u-1", ref: refA, want: wire.CodeResourceNotFound},
		{name: "replaced", cur: current(), target: "u-0", ref: refA, want: wire.CodeUIDMismatch},
		{name: "transitioned to another FormRef", cur: current(), target: "u-1", ref: refB, want: wire.CodeUIDMismatch},
		{name: "replaced, commit.skip-identity", cur: current(), target: "u-0", ref: refA, fs: armed(CommitSkipIdentity)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := codeOf(CheckCommitIdentity(tc.cur, tc.target, tc.ref, "x", tc.fs)); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// An accepted delete commits only while the uid its 202 bound holds the name.
func TestCheckDeleteIdentity(t *testing.T) {
	for _, tc := range []struct {
		name, target string
		fs           *Acts
		want         wire.Code
	}{
		{name: "a delete that bound no uid", target: ""},
		{name: "the bound incarnation", target: "u-1"},
		{name: "replaced since the 202", target: "u-0", want: wire.CodeUIDMismatch},
		{name: "replaced, commit.skip-identity", target: "u-0", fs: armed(CommitSkipIdentity)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := CheckDeleteIdentity(current(), tc.target, "Queue \"orders\"", tc.fs)
			if got := codeOf(e); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if e != nil && !strings.Contains(e.Message, "is now uid u-1; the accepted delete bound uid u-0") {
				t.Fatalf("message %q names neither uid", e.Message)
			}
		})
	}
}

func TestCheckClaim(t *testing.T) {
	r := current()
	if e := CheckClaim(r, "apply", nil); e != nil {
		t.Fatalf("an unclaimed resource is refused: %v", e)
	}
	r.ClaimOp, r.ClaimPath = "formtx_1", "/apis/x"
	e := CheckClaim(r, "delete", nil)
	if codeOf(e) != wire.CodeResourceBusy || e.Retryable || e.HostCode != "form_transition_in_progress" {
		t.Fatalf("a claimed resource: %+v", e)
	}
	if e := CheckClaim(r, "delete", armed(TransitionNoClaim)); e != nil {
		t.Fatalf("transition.no-claim: %v", e)
	}
}
