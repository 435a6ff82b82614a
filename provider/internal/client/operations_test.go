package client

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestGetOperationRefusesAnAnswerThatIsNotAnOperation: a 200 whose body is not the
// closed Operation document is a protocol error naming the operation answer, not an
// operation.
func TestGetOperationRefusesAnAnswerThatIsNotAnOperation(t *testing.T) {
	t.Parallel()
	c := discoveringHost(t, "/operations/op_1", `{"id":"op_1","surprise":true}`)
	op, _, err := c.GetOperation(context.Background(), "op_1")
	var pe *ProtocolError
	if op != nil || err == nil || !strings.Contains(err.Error(), "operation: ") || !errors.As(err, &pe) || pe.Status != 200 {
		t.Errorf("GetOperation = %+v, %v; want a protocol error (200) naming the operation answer", op, err)
	}
}

// TestResultResourceRefusesAResultThatIsNotOne: an apply operation's result that is not
// the closed {"resource": …} document is refused, the operation named.
func TestResultResourceRefusesAResultThatIsNotOne(t *testing.T) {
	t.Parallel()
	for _, result := range []string{`{"resource":{},"extra":1}`, `[]`} {
		o := &Operation{ID: "op_7", Result: json.RawMessage(result)}
		if r, err := o.ResultResource(); err == nil || !strings.HasPrefix(err.Error(), "operation op_7 result: ") {
			t.Errorf("ResultResource of %s = %+v, %v; want an error naming the operation's result", result, r, err)
		}
	}
}
