package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// Checks name the lane's paths by two placeholders, the notation of
// docs/protocol.md#routes, and the client sends them on the lane the run learned from
// the host's discovery (docs/protocol.md#lanes): no check spells a lane of its own.
const (
	// API stands for the API root of the host's lane in a request target.
	API = "{api}"
	// DiscoveryPath stands for the discovery path of the host's lane.
	DiscoveryPath = "{discovery}"
)

// expand puts the lane's paths in for the placeholders a target starts with.
func expand(lane *wire.Lane, target string) string {
	if lane == nil {
		lane = wire.DefaultLane
	}
	if rest, ok := strings.CutPrefix(target, API); ok {
		return lane.APIRoot + rest
	}
	if rest, ok := strings.CutPrefix(target, DiscoveryPath); ok {
		return lane.DiscoveryPath + rest
	}
	return target
}

// hostLane asks the discovery path of every known lane (prefer first) and returns the
// lane whose document the host serves there.
func hostLane(ctx context.Context, c *Client, prefer *wire.Lane) (*wire.Lane, error) {
	order := []*wire.Lane{}
	if prefer != nil {
		order = append(order, prefer)
	}
	for _, l := range wire.Lanes() {
		if l != prefer {
			order = append(order, l)
		}
	}
	var tried []string
	refused := 0 // answers 401 unauthenticated: the token, not the lane, is what failed
	for _, l := range order {
		r, err := c.Do(ctx, Req{Method: http.MethodGet, Target: l.DiscoveryPath})
		if err != nil {
			return nil, unanswered(err)
		}
		if r.Status == http.StatusOK {
			var d struct {
				APIVersions []string `json:"api_versions"`
			}
			if json.Unmarshal(r.Body, &d) == nil && len(d.APIVersions) == 1 && d.APIVersions[0] == l.APIVersion {
				return l, nil
			}
		}
		if r.Code() == wire.CodeUnauthenticated {
			refused++
		}
		tried = append(tried, fmt.Sprintf("%s answered %s", l.DiscoveryPath, r.Got()))
	}
	if refused == len(order) {
		return nil, fmt.Errorf("the host refused the primary token on the discovery path of every known lane (%s): %s; check the token the --token-env variable holds and that --endpoint is the host that issued it",
			wire.KnownLanes(), strings.Join(tried, "; "))
	}
	return nil, fmt.Errorf("the host speaks none of the known lanes (%s): %s; check --endpoint and the token variable",
		wire.KnownLanes(), strings.Join(tried, "; "))
}

// runCatalog is the catalog a run probes the host with: the given one, which must
// speak the host's lane, or else the project's catalog of that lane.
func runCatalog(cat *catalog.Catalog, lane *wire.Lane, endpoint string) (*catalog.Catalog, error) {
	if cat == nil {
		c, err := catalog.EmbeddedLane(lane)
		if err != nil {
			return nil, fmt.Errorf("the host at %s speaks %s, and the runner carries no catalog of that lane: %w", endpoint, lane.Describe(), err)
		}
		return c, nil
	}
	if cat.Lane() != lane {
		return nil, fmt.Errorf("the host at %s speaks %s, but the runner's catalog speaks %s (chosen by %s); pass a --catalog of the host's lane, or none to use the runner's own",
			endpoint, lane.Describe(), cat.Lane().Describe(), cat.LaneChoice().Source)
	}
	return cat, nil
}

// unanswered says a discovery request that got no answer at all as what to check
// (wire.ReadUnanswered): nothing listening at the endpoint, a host name that does not
// resolve or a lookup that failed, no route to the host.
func unanswered(err error) error {
	u := wire.ReadUnanswered(err)
	switch u.Why {
	case wire.Refused:
		return fmt.Errorf("nothing listens there (%w); start the host, or check --endpoint", err)
	case wire.DNSNotFound:
		return fmt.Errorf("the host name %s does not resolve (%w); check --endpoint", u.Name, err)
	case wire.DNSTimeout, wire.DNSFailed:
		return fmt.Errorf("the DNS lookup of %s failed (%w); check --endpoint and the resolver", u.Name, err)
	case wire.NoRoute:
		return fmt.Errorf("no route leads to the host (%w); check --endpoint and the network", err)
	}
	return err
}
