package decide

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"unsafe"

	"github.com/takokit/takokit/catalog/wire"
)

// Every refusal is a *wire.Error: the envelope a client reads, less the
// requestId the lane adds when it answers (docs/protocol.md#errors).

// Refuse builds a refusal with code.
func Refuse(code wire.Code, format string, args ...any) *wire.Error {
	return wire.NewError(code, fmt.Sprintf(format, args...))
}

// Invalid is invalid_argument: the request itself is wrong.
func Invalid(format string, args ...any) *wire.Error {
	return Refuse(wire.CodeInvalidArgument, format, args...)
}

// NotFound is resource_not_found.
func NotFound(format string, args ...any) *wire.Error {
	return Refuse(wire.CodeResourceNotFound, format, args...)
}

// Internal is a hostsim failure (a bug or a store failure).
func Internal(err error) *wire.Error {
	return Refuse(wire.CodeInternalError, "%s", InternalText("", err))
}

// IsInternal says whether a refusal is the host failing (internal_error: a
// store read or statement that failed) rather than a decision about the
// request: such a refusal fails the write it came from, and is never stored as
// an operation's outcome or a resource's condition.
func IsInternal(e *wire.Error) bool { return e != nil && e.Code == wire.CodeInternalError }

// InternalText is what an internal_error says about err, failed while doing
// what during names (" during a Form transition", or ""): a failure a fault
// injected says the fault asked for it; any other is a bug to report.
func InternalText(during string, err error) string {
	if Injected(err) {
		return fmt.Sprintf("hostsim failed%s as an armed fault asked: %v", during, err)
	}
	return fmt.Sprintf("hostsim failed internally%s: %v; this is a hostsim bug, please report it", during, err)
}

// Injected says whether err is a failure a fault made on purpose (store.fail),
// which an internal_error must not call a bug: such errors have Injected() true.
func Injected(err error) bool {
	var inj interface{ Injected() bool }
	return errors.As(err, &inj) && inj.Injected()
}

// AtField names the spec field at fault in details.field.
func AtField(e *wire.Error, pointer string) *wire.Error {
	if pointer != "" {
		e.Details, _ = json.Marshal(map[string]string{"field": pointer})
	}
	return e
}

// Field returns details.field of a refusal, or "".
func Field(e *wire.Error) string {
	var d struct {
		Field string `json:"field"`
	}
	_ = json.Unmarshal(e.Details, &d)
	return d.Field
}

// Describe names a resource in messages.
// It is written by hand, not with fmt: it is built for every request that
// names a resource (a refusal may quote it), and %q's output is
// strconv.Quote's, so the text is the same.
func Describe(kind, name, space string) string {
	b := make([]byte, 0, len(kind)+len(name)+len(space)+16)
	b = append(b, kind...)
	b = append(b, ' ')
	b = strconv.AppendQuote(b, name)
	b = append(b, " in space "...)
	b = strconv.AppendQuote(b, space)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again (as strings.Builder does)
}

// NewRequestID mints a request id: req_ + 20 random hex characters.
func NewRequestID() string {
	// An id names a request in answers and logs; it guards nothing, so the
	// runtime's fast generator serves (no call into the kernel per request).
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	return "req_" + hex.EncodeToString(b[:10])
}
