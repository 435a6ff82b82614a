package client

import "testing"

// TestStatusListReadsAsASentence: the statuses a request may be answered with, as a
// refusal names them: one alone, two joined by "or", more with commas before the "or".
func TestStatusListReadsAsASentence(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{
		{nil, ""},
		{[]int{200}, "200"},
		{[]int{200, 201}, "200 or 201"},
		{[]int{200, 201, 202}, "200, 201 or 202"},
		{[]int{200, 201, 202, 204}, "200, 201, 202 or 204"},
	} {
		if got := statusList(c.in); got != c.want {
			t.Errorf("statusList(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
