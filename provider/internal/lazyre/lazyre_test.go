package lazyre

import (
	"sync"
	"testing"
)

func TestCompilesOnceOnFirstMatch(t *testing.T) {
	r := New(`^op_[A-Za-z0-9][A-Za-z0-9._-]{0,124}$`)
	if r.re != nil {
		t.Fatal("compiled before first use")
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); _ = r.MatchString("op_1") }()
	}
	wg.Wait()
	if !r.MatchString("op_a.b") || r.MatchString("op_") || r.String() != `^op_[A-Za-z0-9][A-Za-z0-9._-]{0,124}$` {
		t.Error("matches wrongly")
	}
}
