// Package transition serves hostsim's exact Form transitions (docs/protocol.md#transitions):
// request validation and digests, the core operation ledger with its resource
// claims, the crash points A–E, readback and forward repair. The simulated
// native backend, with its own ledger, is package transition/backend. Core
// ledger and backend share hostsim's SQLite database but are separate tables
// written by separate code paths and separate transactions, so a crash can
// fall between them.
package transition

import "github.com/takokit/takokit/hostsim/internal/transition/backend"

// schema is the core ledger (a resource's claim and last transition live on
// its row in the store); package backend holds the backend's tables.
const schema = `
CREATE TABLE IF NOT EXISTS transition_ops (
  tenant TEXT NOT NULL, operation_id TEXT NOT NULL,
  space TEXT NOT NULL, api_version TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
  status TEXT NOT NULL, dispatch_attempted INTEGER NOT NULL DEFAULT 0, dispatched_at INTEGER,
  request_digest TEXT NOT NULL, request BLOB NOT NULL,
  pre_uid TEXT NOT NULL, pre_generation INTEGER NOT NULL, pre_revision INTEGER NOT NULL,
  native_identity_digest TEXT NOT NULL, desired_spec_digest TEXT NOT NULL,
  proof BLOB, receipt BLOB, receipt_etag TEXT NOT NULL DEFAULT '', rejection BLOB, failure_code TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, operation_id));
`

// tables are emptied by POST /_sim/reset.
var tables = append([]string{"transition_ops"}, backend.Tables...)
