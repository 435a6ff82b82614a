// Package request holds the request documents of the resource routes and
// the grammar of what a request carries before anything is looked up
// (docs/protocol.md#order, steps 5-9): the precondition headers and the
// Idempotency-Key, entity tags, the strict JSON body and its closed decode,
// and the member grammars every resource request shares. The faults of this
// stage (json.duplicates, json.unknown-members, space.lenient,
// headers.lenient) are asked here, on the request's fault.Set.
package request
