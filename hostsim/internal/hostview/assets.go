package hostview

import (
	"context"

	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// AssetLookup answers what pathname does on the Worker Version with uid
// (docs/protocol.md#static-assets): the admin API's GET /_sim/assets/{uid}.
func (s *Source) AssetLookup(ctx context.Context, uid, pathname string) (*related.AssetAnswer, error) {
	var out *related.AssetAnswer
	err := s.Store.Read(ctx, func(q store.Q) error {
		var err error
		out, err = s.Engine.Related.LookupAsset(q, uid, pathname)
		return err
	})
	return out, err
}
