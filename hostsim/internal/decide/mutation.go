package decide

import (
	"github.com/takokit/takokit/catalog/wire"
)

// Mutation is an apply or import that passed every check needing no stored
// state. An accepted (202) one is stored with its Operation and decided again
// at commit, so it travels as JSON.
type Mutation struct {
	Action        string         `json:"action"` // apply | import
	Tenant        string         `json:"tenant"`
	Principal     string         `json:"principal"`
	Ref           wire.FormRef   `json:"ref"`
	Space         string         `json:"space"`
	Name          string         `json:"name"`
	Spec          map[string]any `json:"spec"`
	IfNoneMatch   bool           `json:"ifNoneMatch"`
	Fence         int64          `json:"fence"`
	IfMatch       int64          `json:"ifMatch"`
	ExpectedUID   *string        `json:"expectedUid"`
	PrepareDigest string         `json:"prepareDigest"`
	NativeID      string         `json:"nativeId"`
	// TargetUID is the incarnation recorded when a 202 was accepted.
	TargetUID string `json:"targetUid"`
}

// What names the mutation's resource in messages.
func (m *Mutation) What() string { return Describe(m.Ref.Kind, m.Name, m.Space) }

// Deletion is an accepted delete, stored with its 202 and decided again at commit.
type Deletion struct {
	Tenant    string       `json:"tenant"`
	Space     string       `json:"space"`
	Ref       wire.FormRef `json:"ref"`
	Name      string       `json:"name"`
	Fence     int64        `json:"fence"`
	IfMatch   int64        `json:"ifMatch"`
	External  bool         `json:"external"`
	TargetUID string       `json:"targetUid"`
}

// What names the deletion's resource in messages.
func (d *Deletion) What() string { return Describe(d.Ref.Kind, d.Name, d.Space) }
