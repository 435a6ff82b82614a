package lifecycle_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim/internal/fault"
)

// complete finishes the operation id through the admin path (Engine.Complete).
func (w *world) complete(a *fault.Armory, id string) (operation, error) {
	w.t.Helper()
	var doc operation
	b, err := w.en.Complete(context.Background(), w.st, a, id, "")
	if err == nil {
		if jerr := json.Unmarshal(b, &doc); jerr != nil {
			w.t.Fatalf("the document %s: %v", b, jerr)
		}
	}
	return doc, err
}

func (w *world) armory(specs ...string) *fault.Armory {
	w.t.Helper()
	a, err := fault.NewArmory(context.Background(), w.st, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	for _, text := range specs {
		s, err := fault.ParseText(text)
		if err != nil {
			w.t.Fatal(err)
		}
		if err := a.Arm(context.Background(), s); err != nil {
			w.t.Fatal(err)
		}
	}
	return a
}

// Completing an operation that is done already answers its document as it
// is: the accepted create is not decided (and refused) a second time.
func TestCompleteSettlesOnlyOnce(t *testing.T) {
	w := &world{t: t}
	w.host("full", nil)
	t.Cleanup(w.close)
	a := w.armory()
	op := w.accept()
	first, err := w.complete(a, op.ID)
	if err != nil || first.Metadata["phase"] != "Succeeded" {
		t.Fatalf("the first completion: %+v, %v", first, err)
	}
	again, err := w.complete(a, op.ID)
	if err != nil || again.Metadata["phase"] != "Succeeded" || again.Target["uid"] != first.Target["uid"] {
		t.Fatalf("completing again: %+v, %v; want the first document %+v", again, err, first)
	}
}

// The faults scoped to the operation's kind and resource act on its commit
// as on a poll: create.overwrite scoped to orders lets the accepted create
// replace the queue stored meanwhile, where the commit would refuse it.
func TestCompleteScopesFaultsToTheOperation(t *testing.T) {
	w := &world{t: t}
	w.host("full", nil)
	t.Cleanup(w.close)
	a := w.armory("create.overwrite,kind=AtLeastOnceQueue,resource=orders")
	op := w.accept()
	w.storeQueue("orders", "u-first")
	doc, err := w.complete(a, op.ID)
	if err != nil || doc.Metadata["phase"] != "Succeeded" {
		t.Fatalf("completed %+v, %v; want Succeeded through create.overwrite", doc, err)
	}
	fired := false
	for _, e := range w.events {
		fired = fired || e.Type == "fault" && bytes.Contains(e.Data, []byte("create.overwrite"))
	}
	if !fired {
		t.Fatalf("create.overwrite did not fire: %+v", w.events)
	}
}

// A store failure while completing reaches the admin caller.
func TestCompleteReportsAStoreFailure(t *testing.T) {
	w := &world{t: t, file: filepath.Join(t.TempDir(), "host.db")}
	w.host("full", nil)
	t.Cleanup(w.close)
	a := w.armory()
	op := w.accept()
	if _, err := w.st.DB().Exec("CREATE TRIGGER injected BEFORE UPDATE ON operations BEGIN SELECT RAISE(ABORT, 'injected failure'); END"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.complete(a, op.ID); err == nil || !strings.Contains(err.Error(), "injected failure") {
		t.Fatalf("completing under a failing operation update: %v", err)
	}
	if got := w.operation(op.ID); got.Done {
		t.Fatal("the failed completion stored the operation done")
	}
}

// A failed read of the operation itself (store.read-fail, its first read)
// reaches the admin caller as the fault's storage error, and the operation
// stays pending: the completion is not answered as an unknown operation.
func TestCompleteReportsAFailedReadOfTheOperation(t *testing.T) {
	w := &world{t: t}
	w.host("full", nil)
	t.Cleanup(w.close)
	op := w.accept()
	a := w.armory("store.read-fail=1,count=1")
	_, err := w.complete(a, op.ID)
	var sf *fault.StoreFailure
	if !errors.As(err, &sf) || !sf.Read || sf.N != 1 {
		t.Fatalf("completing under store.read-fail=1: %v; want the fault's failure of read 1", err)
	}
	if got := w.operation(op.ID); got.Done {
		t.Fatal("the failed completion stored the operation done")
	}
	if doc, err := w.complete(w.armory(), op.ID); err != nil || doc.Metadata["phase"] != "Succeeded" {
		t.Fatalf("completing again without the fault: %+v, %v", doc, err)
	}
}
