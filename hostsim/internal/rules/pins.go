package rules

import (
	"fmt"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Pin records the incarnation one reference resolved to (docs/protocol.md#relations). Pins are
// internal and never on the wire.
type Pin struct {
	Pointer          string // concrete, "/kvBindings/0/resource"
	Relation         string // derived, "/kvBindings/*/resource"
	TargetAPIVersion string
	TargetKind       string
	TargetName       string
	TargetUID        string
	TargetFormRef    wire.FormRef
	BindingRef       *wire.BindingRef // nil outside a binding list
}

// PinOf builds the pin of a verified reference.
func PinOf(ref Reference, target Target) Pin {
	return Pin{Pointer: ref.Pointer, Relation: ref.Relation.Pointer, TargetAPIVersion: target.APIVersion,
		TargetKind: target.Kind, TargetName: ref.Name, TargetUID: target.UID, TargetFormRef: target.FormRef,
		BindingRef: ref.Binding}
}

// PinState pairs a stored pin with what now holds its (apiVersion, kind, name) in the
// source's tenant and space: nil when nothing does.
type PinState struct {
	Pin     Pin
	Current *Target
}

// Drift conditions of docs/protocol.md#relations.
const (
	ReasonExternalChange    = "ExternalChange"
	ReasonDependencyMissing = "DependencyMissing"
	HostReasonReplaced      = "relation-target-replaced"
	HostReasonMissing       = "relation-target-missing"
)

// MaxMessage is the longest condition or error message (docs/protocol.md#status).
const MaxMessage = 4096

// Drift is the derived drift rendering of a source: Drifted false when every pin still
// names the pinned uid under the pinned FormRef. Otherwise Reason is DependencyMissing
// when any target is gone (it wins), else ExternalChange; HostReason is
// relation-target-missing or relation-target-replaced followed by the first such
// relation's pointer and both uids ("relation-target-replaced /worker pinned u-1 now
// u-2"; "now none" for a missing target), within the 256 characters a hostReason
// has; and Message lists every drifted reference with both exact FormRefs.
type Drift struct {
	Drifted            bool
	Reason, HostReason string
	Message            string
}

// EvaluateDrift checks every pin of one source against what now holds its name.
func EvaluateDrift(states []PinState) Drift {
	var lines []string
	missing, replaced := "", ""
	for _, s := range states {
		p := s.Pin
		pinned := fmt.Sprintf("relation %s: pinned %s %q uid %s (%s)", p.Pointer, p.TargetKind, p.TargetName, p.TargetUID, refText(p.TargetFormRef))
		switch c := s.Current; {
		case c == nil || !c.Found:
			if missing == "" {
				missing = driftCode(HostReasonMissing, p, "none")
			}
			lines = append(lines, pinned+" no longer exists")
		case c.UID != p.TargetUID || c.FormRef != p.TargetFormRef:
			if replaced == "" {
				replaced = driftCode(HostReasonReplaced, p, c.UID)
			}
			lines = append(lines, fmt.Sprintf("%s is now uid %s (%s)", pinned, c.UID, refText(c.FormRef)))
		}
	}
	switch {
	case missing != "":
		return Drift{true, ReasonDependencyMissing, missing, clip(strings.Join(lines, "; "))}
	case replaced != "":
		return Drift{true, ReasonExternalChange, replaced, clip(strings.Join(lines, "; "))}
	}
	return Drift{}
}

// driftCode is a drift hostReason: the code, the relation pointer and both uids.
func driftCode(code string, p Pin, now string) string {
	return ClipHostReason(fmt.Sprintf("%s %s pinned %s now %s", code, p.Pointer, p.TargetUID, now))
}

// MaxHostReason is the longest hostReason (docs/protocol.md#status).
const MaxHostReason = 256

// ClipHostReason cuts a hostReason to MaxHostReason bytes at a character boundary.
func ClipHostReason(s string) string {
	if len(s) <= MaxHostReason {
		return s
	}
	cut := MaxHostReason
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut]
}

// Holder is a resource whose stored pin names a target being deleted.
type Holder struct {
	Kind, Name, Pointer string
}

// DependencyInUse is the docs/protocol.md#relations refusal of deleting target (e.g. `EdgeKVNamespace
// "cache"`) while holders pin it by uid; nil when there are none.
func DependencyInUse(target string, holders []Holder) *Refusal {
	if len(holders) == 0 {
		return nil
	}
	hs := make([]string, len(holders))
	for i, h := range holders {
		hs[i] = fmt.Sprintf("%s %q at %s", h.Kind, h.Name, h.Pointer)
	}
	return refuse(wire.CodeDependencyInUse, "", "%s cannot be deleted: it is in use by %s; delete or change those resources first",
		target, clipList(hs))
}

func clip(s string) string {
	if len(s) <= MaxMessage {
		return s
	}
	cut := MaxMessage - len("…")
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

func clipList(items []string) string {
	s := strings.Join(items, ", ")
	if len(s) > MaxMessage-512 {
		n := 0
		for i := range items {
			n += len(items[i]) + 2
			if n > MaxMessage-512 {
				return strings.Join(items[:i], ", ") + fmt.Sprintf(" and %d more", len(items)-i)
			}
		}
	}
	return s
}
