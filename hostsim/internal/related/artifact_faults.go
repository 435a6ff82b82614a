package related

import "github.com/takokit/takokit/hostsim/internal/artifact"

// The artifact stores two faults put in place of the real one (fault-only code).

// forgetful is the artifact store under fault artifacts.forget: it holds no
// committed manifest.
type forgetful struct{ artifact.SQL }

func (forgetful) HoldsManifest(string, string) (bool, error) { return false, nil }

// sharedHoldings is the artifact store under fault artifacts.shared-holdings:
// every tenant holds every stored blob and manifest.
type sharedHoldings struct{ artifact.Store }

func (s sharedHoldings) HoldsBlob(_, digest string) (bool, error) {
	_, ok, err := s.BlobBytes(digest)
	return ok, err
}

func (s sharedHoldings) HoldsManifest(_, digest string) (bool, error) {
	_, ok, err := s.ManifestBytes(digest)
	return ok, err
}
