package decide

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/stored"
)

// Ref is the exact FormRef a stored resource recorded.
func Ref(r *stored.Resource) wire.FormRef {
	return wire.FormRef{APIVersion: r.APIVersion, Kind: r.Kind, DefinitionVersion: r.DefVersion, SchemaDigest: r.SchemaDigest}
}

// CheckCreate is the target check of a create (docs/protocol.md#fences):
// expectedUid has no place on a create, and the name must be free under every
// definition version of the kind. cur is what holds the name, or nil.
func CheckCreate(cur *stored.Resource, expectedUID *string, what string, a *Acts) *wire.Error {
	if expectedUID != nil {
		if !a.On(UIDIgnoreExpected) {
			return Refuse(wire.CodeUIDMismatch, "expectedUid %q was sent with a create (If-None-Match: *); a create has no uid yet, so drop expectedUid", *expectedUID)
		}
	}
	if cur != nil {
		if !a.On(CreateOverwrite) {
			return Refuse(wire.CodeGenerationConflict, "%s already exists (uid %s, %s %s, generation %d); import or update it instead of creating",
				what, cur.UID, cur.Kind, cur.DefVersion, cur.Generation)
		}
	}
	return nil
}

// CheckChange is the target check of a change by apply or import: the
// resource exists under the exact FormRef, then expectedUid, the generation
// fence and If-Match. atCommit is the re-check of an accepted operation.
func CheckChange(cur *stored.Resource, ref wire.FormRef, in Intent, expectedUID *string, atCommit bool, what string, a *Acts) *wire.Error {
	if cur == nil || Ref(cur) != ref {
		return NotFound("%s does not exist under %s; nothing to fence (create it with If-None-Match: *)", what, ref)
	}
	if expectedUID != nil && *expectedUID != cur.UID {
		if !a.On(UIDIgnoreExpected) {
			return Refuse(wire.CodeUIDMismatch, "expectedUid %s does not match %s, which is uid %s (it was replaced); read it again",
				*expectedUID, what, cur.UID)
		}
	}
	if e := CheckGeneration(cur, in.Fence, atCommit, what, "; read it again and re-plan", a); e != nil {
		return e
	}
	return CheckRevision(cur, in.IfMatch, atCommit, what, "; read it again", a)
}

// CheckGeneration compares a generation fence with the stored generation
// (generation_conflict). hint ends the message with what to do.
func CheckGeneration(cur *stored.Resource, fence int64, atCommit bool, what, hint string, a *Acts) *wire.Error {
	if fence == cur.Generation {
		return nil
	}
	if a.On(FenceIgnore) {
		return nil
	}
	if atCommit {
		if a.On(CommitSkipFences) {
			return nil
		}
	}
	return Refuse(wire.CodeGenerationConflict, "fence %d is stale: %s is at generation %d%s", fence, what, cur.Generation, hint)
}

// CheckRevision compares If-Match (0: not sent) with the stored revision
// (revision_conflict). hint ends the message with what to do.
func CheckRevision(cur *stored.Resource, ifMatch int64, atCommit bool, what, hint string, a *Acts) *wire.Error {
	if ifMatch == 0 || ifMatch == cur.Revision {
		return nil
	}
	if a.On(IfMatchIgnore) {
		return nil
	}
	if atCommit {
		if a.On(CommitSkipFences) {
			return nil
		}
	}
	return Refuse(wire.CodeRevisionConflict, "If-Match \"%d\" is stale: %s is at revision %d%s", ifMatch, what, cur.Revision, hint)
}

// CheckDeleteFences are the fences of a delete: the generation fence and
// If-Match (never the revision alone: derived rendering moves it under a
// client that did nothing wrong). what names the resource.
func CheckDeleteFences(cur *stored.Resource, d *Deletion, atCommit bool, what string, a *Acts) *wire.Error {
	if e := CheckGeneration(cur, d.Fence, atCommit, what, "; read it again", a); e != nil {
		return e
	}
	if d.Fence != cur.Revision {
		if a.On(DeleteRevisionFenced) {
			return Refuse(wire.CodeGenerationConflict, "fence %d is stale: %s is at revision %d (fault delete.revision-fenced compares the fence with the revision)", d.Fence, what, cur.Revision)
		}
	}
	return CheckRevision(cur, d.IfMatch, atCommit, what, "; read it again", a)
}

// CheckRecorded is the target of read, observe and delete: the caller's
// resource recorded under exactly ref (docs/protocol.md#identity). cur is what
// holds the name, or nil.
func CheckRecorded(cur *stored.Resource, ref wire.FormRef, what string, a *Acts) *wire.Error {
	if cur == nil {
		return NotFound("%s does not exist under %s", what, ref)
	}
	if Ref(cur) != ref {
		if !a.On(FormRefAnyVersion) {
			return NotFound("%s does not exist under %s", what, ref)
		}
	}
	return nil
}

// CheckCommitIdentity is the first re-check of an accepted operation
// (docs/protocol.md#operations): the name is still held by the incarnation
// the 202 bound (targetUID, "" for a create) under the same FormRef.
func CheckCommitIdentity(cur *stored.Resource, targetUID string, ref wire.FormRef, what string, a *Acts) *wire.Error {
	if targetUID == "" {
		return nil
	}
	if cur != nil && cur.UID == targetUID && Ref(cur) == ref {
		return nil
	}
	if a.On(CommitSkipIdentity) {
		return nil
	}
	if cur == nil {
		return NotFound("%s no longer exists; the accepted operation bound uid %s", what, targetUID)
	}
	return Refuse(wire.CodeUIDMismatch, "%s is now uid %s under %s; the accepted operation bound uid %s under %s",
		what, cur.UID, Ref(cur), targetUID, ref)
}

// CheckDeleteIdentity is the identity re-check of an accepted delete: the
// name is still held by the uid the 202 bound (cur is the current holder).
func CheckDeleteIdentity(cur *stored.Resource, targetUID, what string, a *Acts) *wire.Error {
	if targetUID == "" || cur.UID == targetUID {
		return nil
	}
	if a.On(CommitSkipIdentity) {
		return nil
	}
	return Refuse(wire.CodeUIDMismatch, "%s is now uid %s; the accepted delete bound uid %s", what, cur.UID, targetUID)
}
