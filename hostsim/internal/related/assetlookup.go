package related

import (
	"encoding/json"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// AssetAnswer is what asset lookup does with one pathname on one Worker Version
// (docs/protocol.md#static-assets). hostsim serves no application traffic; the
// admin API answers this question instead (GET /_sim/assets/{uid}?path=...).
type AssetAnswer struct {
	Version          AssetResource  `json:"version"`
	Bundle           *AssetResource `json:"bundle,omitempty"`
	ManifestDigest   string         `json:"manifestDigest,omitempty"`
	NotFoundHandling string         `json:"notFoundHandling,omitempty"`
	RunWorkerFirst   bool           `json:"runWorkerFirst"`
	Pathname         string         `json:"pathname"`
	// Outcome is served, fallback, miss or refused (rules.AssetOutcome), or
	// no-assets for a version without assets, which performs no lookup.
	Outcome string `json:"outcome"`
	Path    string `json:"path,omitempty"`
	Serves  string `json:"serves,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Order says where lookup sits beside the worker's fetch handler.
	Order string `json:"order"`
}

// AssetResource names a resource of an asset answer.
type AssetResource struct {
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Space string `json:"space"`
	UID   string `json:"uid"`
}

// NoAssets is the outcome for a version without assets.
const NoAssets = "no-assets"

// LookupAsset answers what pathname does on the version with uid: asset lookup in
// the exact manifest its assets relation pinned (resource_not_found when uid names
// no Worker Version, or when the pinned bundle is gone).
func (g *G) LookupAsset(q store.Q, uid, pathname string) (*AssetAnswer, error) {
	v, err := store.GetResourceByUID(q, uid)
	if err != nil {
		return nil, err
	}
	var vr *versionRole
	if v != nil {
		vr = roles.version(v.Kind)
	}
	if vr == nil {
		return nil, decide.NotFound("no Worker Version has uid %q; read GET /_sim/state for the uids", uid)
	}
	ans := &AssetAnswer{Version: AssetResource{v.Kind, v.Name, v.Space, v.UID}, Pathname: pathname, Outcome: NoAssets,
		Order: "no asset lookup: every request goes to fetch"}
	var spec map[string]any
	if err := json.Unmarshal(v.Spec, &spec); err != nil {
		return nil, err
	}
	a := vr.Assets
	if a == nil || valueAt(spec, a.Bundle) == nil {
		return ans, nil
	}
	ans.NotFoundHandling, _ = valueAt(spec, a.NotFoundHandling).(string)
	ans.RunWorkerFirst, _ = valueAt(spec, a.RunWorkerFirst).(bool)
	ans.Order = "asset lookup first; fetch runs only when it produces no response"
	if ans.RunWorkerFirst {
		ans.Order = "fetch first; asset lookup only when the worker answers 404, and a miss keeps the worker's 404"
	}
	pins, err := store.PinsOf(q, v.UID)
	if err != nil {
		return nil, err
	}
	bp, ok := pinAt(pins, a.Bundle)
	if !ok {
		return nil, decide.NotFound("%s %q pins no %s", v.Kind, v.Name, a.Bundle)
	}
	b, err := store.GetResourceByUID(q, bp.TargetUID)
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, decide.NotFound("%s %q pins %s %q uid %s at %s, which no longer exists; re-apply the version", v.Kind, v.Name, bp.TargetKind, bp.TargetName, bp.TargetUID, a.Bundle)
	}
	ans.Bundle = &AssetResource{b.Kind, b.Name, b.Space, b.UID}
	var bspec map[string]any
	if err := json.Unmarshal(b.Spec, &bspec); err != nil {
		return nil, err
	}
	mk, _ := wire.ManifestKindOf(b.Kind)
	br := roles.bundle(b.Kind)
	if br == nil || mk == nil {
		return nil, decide.NotFound("%s %q is not a bundle kind", b.Kind, b.Name)
	}
	ans.ManifestDigest, _ = valueAt(bspec, br.ManifestDigest).(string)
	man, err := artifact.ResolveBundle(ArtifactStore(q, nil), artifact.Caller{Tenant: v.Tenant}, a.Bundle, ans.ManifestDigest, mk, nil)
	if err != nil {
		return nil, Refusal(err)
	}
	res := rules.LookupAsset(pathname, rules.AssetPolicy{Fallback: ans.NotFoundHandling == a.Fallback, Index: a.Index}, man.Has)
	ans.Outcome, ans.Path, ans.Serves, ans.Reason = string(res.Outcome), res.Path, res.Serves, res.Reason
	return ans, nil
}
