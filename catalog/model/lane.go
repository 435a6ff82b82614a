package model

import "github.com/takokit/takokit/catalog/wire"

// LaneChoice is the lane a catalog speaks and what chose it (docs/catalog-rules.md#lanes).
type LaneChoice struct {
	Lane *wire.Lane
	// Source names what chose the lane, for messages: a file, a family, "the lane option"
	// or the default.
	Source string
	// Explicit is false only when nothing in the catalog chose a lane and the default
	// applies; a program's lane option may then choose another.
	Explicit bool
}

// Lane is the Host API lane the catalog speaks; never nil.
func (c *Catalog) Lane() *wire.Lane {
	if c.lane.Lane == nil {
		return wire.DefaultLane
	}
	return c.lane.Lane
}

// LaneChoice is the lane with what chose it.
func (c *Catalog) LaneChoice() LaneChoice {
	ch := c.lane
	ch.Lane = c.Lane()
	return ch
}

// WithLane returns a copy of the catalog that speaks choice.Lane; the parts are shared.
func (c *Catalog) WithLane(choice LaneChoice) *Catalog {
	cp := *c
	cp.lane = choice
	return &cp
}
