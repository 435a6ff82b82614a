// Package transition serves hostsim's exact Form transitions (docs/protocol.md#transitions):
// request validation and digests, the core operation ledger with its resource
// claims, a simulated native backend with its own ledger, the crash points
// A–E, readback and forward repair. Core ledger and backend share hostsim's
// SQLite database but are separate tables written by separate code paths and
// separate transactions, so a crash can fall between them.
package transition

// schema is the core ledger and the backend's native objects and ledger (a
// resource's claim and last transition live on its row in the store).
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
CREATE TABLE IF NOT EXISTS backend_objects (
  uid TEXT PRIMARY KEY, native_type TEXT NOT NULL, native_id TEXT NOT NULL,
  definition_version TEXT NOT NULL, spec_digest TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS backend_ledger (
  operation_id TEXT PRIMARY KEY, tenant TEXT NOT NULL, uid TEXT NOT NULL, outcome TEXT NOT NULL,
  observed_spec_digest TEXT NOT NULL DEFAULT '', native_identity_digest TEXT NOT NULL DEFAULT '',
  failure_code TEXT NOT NULL DEFAULT '', at INTEGER NOT NULL);
`

// tables are emptied by POST /_sim/reset.
var tables = []string{"transition_ops", "backend_objects", "backend_ledger"}
