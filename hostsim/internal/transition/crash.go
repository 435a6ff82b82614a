package transition

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/takokit/takokit/hostsim/internal/fault"
)

// crash is an armed transition.exit, transition.crash or transition.hang
// that fired at a point.
type crash struct {
	point, op string
	exit      bool
	// hang holds the answer until the client goes away (transition.hang).
	hang <-chan struct{}
}

// crashAt is the crash point after a step's durable write (A-E), asked inside
// that step's transaction so the firing commits with the write: the process
// exits there (transition.exit) or the request is aborted (transition.crash).
func crashAt(c *Call, point, op string) *crash {
	at := func(v string) bool { return v == point }
	if _, ok := c.Faults.Where(fault.TransitionExit, at); ok {
		return &crash{point: point, op: op, exit: true}
	}
	if _, ok := c.Faults.Where(fault.TransitionCrash, at); ok {
		return &crash{point: point, op: op}
	}
	if _, ok := c.Faults.Where(fault.TransitionHang, at); ok {
		return &crash{point: point, op: op, hang: c.Ctx.Done()}
	}
	return nil
}

// HangMarker starts the line a transition.hang point logs once its write is
// durable; a test waits for it, then kills the process.
const HangMarker = "hostsim: holding Form transition"

// spoil makes one member of a committed proof wrong (transition.proof-wrong):
// the transition commits, its proof disagrees with the resource.
func (p *proof) spoil(member string) {
	switch member {
	case "uid":
		p.UID += "-other"
	case "generation":
		p.Generation += "0"
	case "nativeIdentityDigest":
		p.NativeIdentityDigest = otherDigest(p.NativeIdentityDigest)
	case "transitionEvidenceDigest":
		p.TransitionEvidenceDigest = otherDigest(p.TransitionEvidenceDigest)
	default:
		p.ObservedSpecDigest = otherDigest(p.ObservedSpecDigest)
	}
}

// otherDigest is a well-formed digest that is not d.
func otherDigest(d string) string {
	sum := sha256.Sum256([]byte("hostsim fault transition.proof-wrong: not " + d))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// rejection is the failure code the backend answers for this request, or "":
// the probe transition-reject on the POST, or an armed transition.reject.
func rejection(c *Call) string {
	if c.Probe == "transition-reject" && c.Method == "POST" {
		return "backend_rejected"
	}
	if v, ok := c.Faults.Value(fault.TransitionReject); ok {
		if v != "" {
			return v
		}
		return "backend_rejected"
	}
	return ""
}
