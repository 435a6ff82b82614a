package store

// schema is every table of hostsim's state. Specs and outputs are stored as
// the exact bytes served; a recorded answer as those bytes, or encoded
// against the dictionary dict names (package bodycodec), and its fingerprint, like a
// prepare's digest, as the 32 bytes of its SHA-256. Tables looked up by a
// composite key are WITHOUT ROWID: one b-tree, searched once.
const schema = `
CREATE TABLE IF NOT EXISTS resources (
  tenant TEXT NOT NULL, space TEXT NOT NULL, api_version TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
  uid TEXT NOT NULL UNIQUE, def_version TEXT NOT NULL, schema_digest TEXT NOT NULL,
  generation INTEGER NOT NULL, revision INTEGER NOT NULL,
  spec TEXT NOT NULL, spec_digest TEXT NOT NULL, native_id TEXT,
  ready_status TEXT NOT NULL, ready_reason TEXT NOT NULL, ready_host_reason TEXT NOT NULL DEFAULT '',
  ready_message TEXT NOT NULL DEFAULT '', ready_ltt TEXT NOT NULL, touches INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL, pins INTEGER NOT NULL DEFAULT 0,
  claim_op TEXT NOT NULL DEFAULT '', claim_since TEXT NOT NULL DEFAULT '', claim_path TEXT NOT NULL DEFAULT '',
  last_transition TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (tenant, space, api_version, kind, name)) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS resources_native ON resources(tenant, native_id) WHERE native_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS resources_kind ON resources(kind, tenant);
CREATE TABLE IF NOT EXISTS pins (
  source_uid TEXT NOT NULL, pointer TEXT NOT NULL, relation TEXT NOT NULL,
  target_api_version TEXT NOT NULL, target_kind TEXT NOT NULL, target_name TEXT NOT NULL,
  target_uid TEXT NOT NULL, target_ref TEXT NOT NULL, binding_ref TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (source_uid, pointer)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS pins_target ON pins(target_uid);
CREATE INDEX IF NOT EXISTS pins_target_name ON pins(target_api_version, target_kind, target_name);
CREATE TABLE IF NOT EXISTS idempotency (
  tenant TEXT NOT NULL, principal TEXT NOT NULL, space TEXT NOT NULL, key TEXT NOT NULL,
  fingerprint TEXT NOT NULL, status INTEGER NOT NULL, etag TEXT NOT NULL, body BLOB NOT NULL,
  bound_uid TEXT NOT NULL DEFAULT '', bound_op TEXT NOT NULL DEFAULT '', created_at INTEGER NOT NULL,
  dict INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, principal, space, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS dictionaries (id INTEGER PRIMARY KEY, body BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS prepares (
  digest TEXT NOT NULL, tenant TEXT NOT NULL, minted_at INTEGER NOT NULL,
  PRIMARY KEY (digest, tenant)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS operations (
  id TEXT PRIMARY KEY, tenant TEXT NOT NULL, principal TEXT NOT NULL, action TEXT NOT NULL,
  kind TEXT NOT NULL, name TEXT NOT NULL, request BLOB NOT NULL, target_uid TEXT NOT NULL DEFAULT '',
  polls INTEGER NOT NULL DEFAULT 0, complete_after INTEGER NOT NULL, done INTEGER NOT NULL DEFAULT 0,
  doc BLOB NOT NULL, created_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS operations_pending ON operations(target_uid) WHERE done=0;
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS faults (
  id INTEGER PRIMARY KEY AUTOINCREMENT, source TEXT NOT NULL, doc TEXT NOT NULL,
  remaining INTEGER, fired INTEGER NOT NULL DEFAULT 0);
`

// resetTables are emptied by POST /_sim/reset.
var resetTables = []string{"resources", "pins", "idempotency", "prepares", "operations", "counters"}
