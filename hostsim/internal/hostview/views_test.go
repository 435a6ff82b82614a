package hostview

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/sqldb"
)

// A request's resource is read from its path: kind and name unescaped, the
// route's own tail ignored; a path that names no resource names nothing.
func TestResourceInPath(t *testing.T) {
	for _, tc := range []struct{ path, kind, name string }{
		{"/apis/t/v1/resources/g.example/v1/Queue/orders", "Queue", "orders"},
		{"/apis/t/v1/resources/g.example/v1/Queue/orders/observe", "Queue", "orders"},
		{"/apis/t/v1/resources/g.example/v1/Qu%65ue/my%20orders", "Queue", "my orders"},
		{"/apis/t/v1/resources/g.example/v1/Queue", "", ""},
		{"/apis/t/v1/support/forms", "", ""},
	} {
		if k, n := resourceInPath(tc.path); k != tc.kind || n != tc.name {
			t.Errorf("%s: %q %q, want %q %q", tc.path, k, n, tc.kind, tc.name)
		}
	}
}

// Whether an event is about a resource: its uid decides when the event has
// one; else kind and name, within the tenant and space the event names.
func TestSubjectNames(t *testing.T) {
	r := &Resource{Tenant: "a", Space: "prod", Kind: "Queue", Name: "orders", UID: "u-2"}
	for _, tc := range []struct {
		s    Subject
		want bool
	}{
		{Subject{Kind: "Queue", Name: "orders"}, true},
		{Subject{Tenant: "a", Space: "prod", Kind: "Queue", Name: "orders"}, true},
		{Subject{Kind: "Bucket", Name: "orders"}, false},
		{Subject{Kind: "Queue", Name: "order"}, false},
		{Subject{Tenant: "b", Kind: "Queue", Name: "orders"}, false},
		{Subject{Space: "dev", Kind: "Queue", Name: "orders"}, false},
		{Subject{UID: "u-2", Kind: "Bucket"}, true},
		{Subject{UID: "u-1", Kind: "Queue", Name: "orders"}, false},
	} {
		if got := tc.s.Names(r); got != tc.want {
			t.Errorf("%+v names %+v: %v, want %v", tc.s, r, got, tc.want)
		}
	}
}

// seqs are the numbers of events.
func seqs(evs []journal.Event) []int64 {
	out := make([]int64, len(evs))
	for i, ev := range evs {
		out[i] = ev.Seq
	}
	return out
}

// span is the numbers from..to.
func span(from, to, step int64) []int64 {
	var out []int64
	for s := from; s <= to; s += step {
		out = append(out, s)
	}
	return out
}

// RecentEvents reads the journal backwards in chunks of a thousand: the newest
// n events up to a number that a filter keeps, oldest first, across chunks, and
// never one past the number, nor one the ring no longer keeps.
func TestRecentEvents(t *testing.T) {
	src, _ := newSource(t)
	for i := 1; i <= 2500; i++ {
		src.Journal.Request(fmt.Sprintf("tenant-%d", i%2), "GET", "/x", "/x", "", 200, false)
	}
	even := func(ev journal.Event) bool { return EventSubject(ev).Tenant == "tenant-0" }
	for _, tc := range []struct {
		upTo int64
		n    int
		keep func(journal.Event) bool
		want []int64
	}{
		{2500, 3, nil, span(2498, 2500, 1)},
		{2300, 3, nil, span(2298, 2300, 1)},
		{2500, 2500, nil, span(1, 2500, 1)},
		{2500, 3000, nil, span(1, 2500, 1)},
		{2500, 1200, even, span(102, 2500, 2)},
		{1001, 2, even, []int64{998, 1000}},
	} {
		if got := seqs(src.RecentEvents(tc.upTo, tc.n, tc.keep)); !slices.Equal(got, tc.want) {
			t.Errorf("RecentEvents(%d, %d): %d events %v…, want %d %v…", tc.upTo, tc.n, len(got), got[:min(len(got), 4)], len(tc.want), tc.want[:min(len(tc.want), 4)])
		}
	}
	// the ring keeps the newest journal.MaxEvents: what it dropped is not read,
	// and an event past the number asked for is not taken in its place
	for i := 2500; i < journal.MaxEvents+600; i++ {
		src.Journal.Request("tenant-1", "GET", "/x", "/x", "", 200, false)
	}
	if got := seqs(src.RecentEvents(1500, 5, nil)); !slices.Equal(got, span(1496, 1500, 1)) {
		t.Errorf("up to 1500 with 1..600 dropped: %v", got)
	}
	if got := seqs(src.RecentEvents(1500, 1000, nil)); !slices.Equal(got, span(601, 1500, 1)) {
		t.Errorf("the newest 1000 up to 1500 with 1..600 dropped: %d events from %v", len(got), got[:min(len(got), 1)])
	}
	src.Journal.Clear()
	if got := src.RecentEvents(10, 5, nil); len(got) != 0 {
		t.Errorf("an emptied journal: %v", seqs(got))
	}
}

// Kinds are the kinds the host installs, each once, sorted.
func TestKindsOfTheHost(t *testing.T) {
	src, _ := newSource(t)
	var want []string
	for _, f := range src.Host.Forms() {
		want = append(want, f.Ref.Kind)
	}
	slices.Sort(want)
	want = slices.Compact(want)
	if len(want) == len(src.Host.Forms()) {
		t.Fatal("every kind of the catalog has one version: the test needs one with two")
	}
	if got := src.Kinds(); !slices.Equal(got, want) {
		t.Errorf("kinds %q, want %q", got, want)
	}
}

// What a profile refuses, as the dashboard says it: no endpoint assignment
// names the kinds it leaves out, each once; and how much a host installs.
func TestRefusalsAndInstalledOfAHost(t *testing.T) {
	full, _ := newSource(t)
	if r, err := full.Refusals(); err != nil || len(r) != 0 {
		t.Errorf("full refuses %q, %v", r, err)
	}
	forms, kinds := len(full.Host.Cat.Forms()), len(full.Host.Cat.Kinds())
	if got, want := full.Installed(), (Installed{Forms: forms, Kinds: kinds, CatalogForms: forms, Whole: true}); got != want || kinds == forms {
		t.Errorf("full installs %+v, want %+v (kinds fewer than Forms)", got, want)
	}
	noEP, _ := newSourceOf(t, "no-endpoints")
	if r, err := noEP.Refusals(); err != nil || !slices.Equal(r, []string{"no endpoint assignment (WorkerEndpoint not installed: host-assigned outputs)"}) {
		t.Errorf("no-endpoints refuses %q, %v", r, err)
	}
	if in := noEP.Installed(); in.Whole || in.Forms != forms-2 || in.Kinds != kinds-1 || in.CatalogForms != forms {
		t.Errorf("no-endpoints installs %+v; want two Forms and one kind fewer than the catalog's %d and %d", in, forms, kinds)
	}
	// every Form, but not every binding: not the whole catalog
	noBinding, _ := newSourceOf(t, "no-bucket-binding")
	if in := noBinding.Installed(); in.Whole || in.Forms != forms {
		t.Errorf("no-bucket-binding installs %+v; want every Form, not the whole catalog", in)
	}
}

// The databases of SQLiteDatabase resources, and only theirs: one created by
// a migration shows its ledger and tables, one not yet created shows none.
func TestDatabasesOfDatabaseResources(t *testing.T) {
	src, st := newSource(t)
	ctx := context.Background()
	insert := func(f *catalog.Form, name, uid string) *Resource {
		r := storedResource(f, name, uid, `{}`)
		insertResource(t, st, r)
		return &Resource{Tenant: r.Tenant, Space: r.Space, APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: r.UID}
	}
	dbForm, queue := formOf(t, src, "SQLiteDatabase"), formOf(t, src, "AtLeastOnceQueue")
	main := insert(dbForm, "main", "u-db")
	insert(dbForm, "later", "u-later")
	orders := insert(queue, "orders", "u-q")
	d, err := src.DBs.Open("u-db")
	if err != nil {
		t.Fatal(err)
	}
	entry := sqldb.Entry{Seq: 1, Path: "0001.sql", Digest: "sha256:1", ManifestDigest: "sha256:m", AppliedAt: "2026-01-02T03:04:05Z"}
	err = d.Exclusive(ctx, func(s *sqldb.Session) error {
		return s.Apply(sqldb.File{Path: "0001.sql", Digest: "sha256:1", SQL: []byte("CREATE TABLE notes (id INTEGER)")}, entry, time.Second)
	})
	if err != nil {
		t.Fatal(err)
	}
	dbs, err := src.Databases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range dbs {
		var tables []string
		for _, tb := range x.Tables {
			tables = append(tables, tb.Name)
		}
		got = append(got, fmt.Sprintf("%s %s created=%v file=%q ledger=%v tables=%v", x.Kind, x.Name, x.Created, x.File, x.Ledger, tables))
	}
	want := []string{
		`SQLiteDatabase later created=false file="" ledger=[] tables=[]`,
		fmt.Sprintf(`SQLiteDatabase main created=true file="" ledger=%v tables=[notes]`, []sqldb.Entry{entry}),
	}
	if !slices.Equal(got, want) {
		t.Errorf("databases\n%q\nwant\n%q", got, want)
	}
	if x, err := src.DatabaseOf(ctx, main); err != nil || x == nil || x.UID != "u-db" || !x.Created {
		t.Errorf("DatabaseOf(main): %+v, %v", x, err)
	}
	if x, err := src.DatabaseOf(ctx, orders); x != nil || err != nil {
		t.Errorf("DatabaseOf a queue: %+v, %v; want nil", x, err)
	}
	if x, err := src.DatabaseByUID(ctx, "u-db"); err != nil || x == nil || x.Name != "main" || len(x.Tables) != 1 {
		t.Errorf("DatabaseByUID(u-db): %+v, %v", x, err)
	}
	for _, uid := range []string{"u-q", "u-none"} {
		if x, err := src.DatabaseByUID(ctx, uid); x != nil || err != nil {
			t.Errorf("DatabaseByUID(%s): %+v, %v; want nil", uid, x, err)
		}
	}
}
