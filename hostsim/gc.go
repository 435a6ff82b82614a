package hostsim

import "runtime/debug"

// ServingGCPercent is the collector's target a serving host sets when GOGC is not
// set: its live heap is a few MiB, so collecting at +50% instead of +100% keeps
// about 3 MiB less resident for no measurable CPU (docs/decisions.md, "hostsim
// memory: the collector's target").
const ServingGCPercent = 50

// TuneGC sets ServingGCPercent for a process that serves a host (`hostsim serve`,
// the bench's profiled server), unless gogc — the process's GOGC — chose a percent
// of its own; it returns the percent in force. New leaves the collector alone: an
// embedding program owns its process.
func TuneGC(gogc string) int {
	if gogc != "" {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	debug.SetGCPercent(ServingGCPercent)
	return ServingGCPercent
}
