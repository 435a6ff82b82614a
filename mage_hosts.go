//go:build mage

package main

// simProfiles are the partial hosts `mage sim` and `mage demo` start side by side
// (internal/simhosts starts them).
var simProfiles = []string{"full", "kv-only", "no-endpoints", "tight-limits"}
