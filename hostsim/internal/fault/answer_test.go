package fault

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// A write whose fn ends with Answer(refusal, nil) commits what fn did and the
// request's firings, and Write returns that refusal; Answer(nil, err) and
// Answer(refusal, err) roll the write back and return err; Answer(nil, nil)
// lets fn go on.
func TestAnAnsweredRefusalCommitsTheWriteFirst(t *testing.T) {
	st := memoryStore(t)
	ctx := context.Background()
	armory, err := NewArmory(ctx, st, []Spec{{Fault: FenceIgnore.Name}})
	if err != nil {
		t.Fatal(err)
	}
	refusal := wire.NewError(wire.CodeInternalError, "the database failed after a file committed")
	broken := errors.New("the host's store failed")
	mutations := func() int64 {
		var n int64
		_ = st.Read(ctx, func(q store.Q) error {
			c, err := store.CounterValues(q)
			n = c["mutations"]
			return err
		})
		return n
	}
	fired := func() int64 {
		l, err := armory.List()
		if err != nil || len(l) != 1 {
			t.Fatalf("the armory lists %v (%v)", l, err)
		}
		return l[0].Fired
	}
	for _, c := range []struct {
		name           string
		refusal        *wire.Error
		err            error
		want           error
		kept, recorded bool
	}{
		{"a refusal", refusal, nil, refusal, true, true},
		{"a store failure", nil, broken, broken, false, false},
		{"both", refusal, broken, broken, false, false},
		{"neither", nil, nil, nil, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := armory.Request("req_"+c.name, "", "")
			before, firedBefore := mutations(), fired()
			went := false
			got := s.Write(ctx, st, time.Now, func(q store.Q) error {
				if err := store.AddCounter(q, "mutations", 1); err != nil {
					return err
				}
				s.On(FenceIgnore)
				if err := Answer(c.refusal, c.err); err != nil {
					return err
				}
				went = true
				return nil
			})
			if got != c.want {
				t.Fatalf("Write returned %v, want %v", got, c.want)
			}
			if w, ok := got.(*wire.Error); c.refusal != nil && c.err == nil && (!ok || w != refusal) {
				t.Fatalf("Write returned %T, want the refusal itself", got)
			}
			if went != (c.refusal == nil && c.err == nil) {
				t.Fatalf("fn went on after Answer: %v", went)
			}
			if kept := mutations() == before+1; kept != c.kept {
				t.Fatalf("the write was kept: %v, want %v", kept, c.kept)
			}
			if recorded := fired() == firedBefore+1; recorded != c.recorded || s.Pending() == c.recorded {
				t.Fatalf("the firing was recorded: %v (pending %v), want %v", recorded, s.Pending(), c.recorded)
			}
		})
	}
}
