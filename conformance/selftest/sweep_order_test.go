package selftest

import "testing"

// TestASweepComparesAConcurrentCheckAsASet: against a partial host the request
// sweep alters a check's requests from the first one it does not send to full.
// For a check sending requests at once on purpose the order is the scheduler's,
// so its requests are compared as a set: the same set in another order is
// nothing new, one request other than full's makes all of them new. Any other
// check is compared in order.
func TestASweepComparesAConcurrentCheckAsASet(t *testing.T) {
	t.Parallel()
	const id = "concurrent-unrelated-mutation"
	prep, put := "POST /apis/x/resources/prepare", "PUT /apis/x/resources/g/v1/Queue/conc-r1-c2-3"
	other := "PUT /apis/x/resources/g/v1/Bucket/conc-r1-c2-4"
	onFull := []string{sameRequest(prep), sameRequest(prep), sameRequest(put), sameRequest(put)}
	for _, c := range []struct {
		name string
		id   string
		sent []string
		want int
	}{
		{"the same requests in full's order", id, []string{prep, prep, put, put}, 4},
		{"the same requests in another order", id, []string{prep, put, prep, put}, 4},
		{"one request full never got", id, []string{prep, prep, put, other}, 0},
		{"one request fewer", id, []string{prep, prep, put}, 0},
		{"another check, in full's order", "apply-create-uid-minted", []string{prep, prep, put, put}, 4},
		{"another check, in another order", "apply-create-uid-minted", []string{prep, put, prep, put}, 1},
		{"another check, a request full never got", "apply-create-uid-minted", []string{prep, prep, put, other}, 3},
	} {
		if got := sentAsOnFull(c.id, c.sent, onFull); got != c.want {
			t.Errorf("%s: sentAsOnFull = %d, want %d", c.name, got, c.want)
		}
	}
}
