package client

import (
	"context"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// TestFailedSupportReadPausesBeforeItsRetry: a support read no host answers is tried
// again once after 250 ms (a build sets no SupportRetryWait); Config.SupportRetryWait
// replaces the pause only where it is set (the provider's tests).
func TestFailedSupportReadPausesBeforeItsRetry(t *testing.T) {
	t.Parallel()
	c, err := New(Config{Endpoint: closedPort(t), Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ref := wire.FormRef{APIVersion: "edge.forms.takokit.dev/v1beta1", Kind: "EdgeKVNamespace", DefinitionVersion: "0.1.0"}
	start := time.Now()
	if _, err := c.FormSupport(context.Background(), ref); err == nil {
		t.Fatal("a support read of a closed port must fail")
	}
	if took := time.Since(start); took < supportRetryWait {
		t.Errorf("the failed read took %s: the retry must wait %s first", took, supportRetryWait)
	}
	quick, err := New(Config{Endpoint: closedPort(t), Token: "t", SupportRetryWait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if quick.supportRetryWait != time.Millisecond {
		t.Errorf("SupportRetryWait %s was not applied: the client waits %s", time.Millisecond, quick.supportRetryWait)
	}
}
