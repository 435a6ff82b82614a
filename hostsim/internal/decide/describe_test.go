package decide

import (
	"fmt"
	"testing"
)

// Describe writes what fmt's "%s %q in space %q" writes, for any text.
func TestDescribeIsTheQuotedName(t *testing.T) {
	for _, tc := range [][3]string{
		{"EdgeKVNamespace", "orders", "demo"},
		{"WorkerVersion", `a"b\c`, ""},
		{"K", "é\u2028\x01\x7f\xff", "späce\t"},
		{"", "", ""},
	} {
		want := fmt.Sprintf("%s %q in space %q", tc[0], tc[1], tc[2])
		if got := Describe(tc[0], tc[1], tc[2]); got != want {
			t.Errorf("Describe(%q, %q, %q) = %s, want %s", tc[0], tc[1], tc[2], got, want)
		}
	}
	if n := testing.AllocsPerRun(20, func() { _ = Describe("EdgeKVNamespace", "orders", "demo") }); n != 1 {
		t.Errorf("Describe allocates %v times, want 1", n)
	}
}
