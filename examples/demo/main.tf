# The demo configuration: one small edge application, applied unchanged to several hosts.
# A host that cannot carry part of it says so at plan time, before anything is uploaded or created.

terraform {
  required_providers {
    takoform = { source = "takokit/takoform" }
  }
}

# Endpoint, token and space come from TAKOFORM_ENDPOINT, TAKOFORM_TOKEN and TAKOFORM_SPACE.
provider "takoform" {}

resource "takoform_module_worker" "api" {
  name = "api"
}

resource "takoform_edge_kv_namespace" "sessions" {
  name = "sessions"
}

resource "takoform_edge_object_bucket" "uploads" {
  name = "uploads"
}

resource "takoform_at_least_once_queue" "events" {
  name                      = "events"
  message_retention_seconds = 345600
}

# The application's SQLite database, its schema as an ordered migration history: each file runs
# once, in order, and only the files the database has not applied yet run on a later apply.
resource "takoform_sqlite_database" "app" {
  name = "app"
}

resource "takoform_sqlite_migration_set" "app" {
  revision_owner = "app"
  files = [
    { path = "0001_sessions.sql", content_type = "application/sql", content_file = "${path.module}/migrations/0001_sessions.sql" },
    { path = "0002_uploads.sql", content_type = "application/sql", content_file = "${path.module}/migrations/0002_uploads.sql" },
  ]
  lifecycle {
    create_before_destroy = true
  }
}

# Named after the set it applies and created before the one it replaces, so a set the host
# refuses leaves the application in force (docs/protocol.md#migrations).
resource "takoform_sqlite_migration_application" "app" {
  name          = takoform_sqlite_migration_set.app.name
  database      = takoform_sqlite_database.app.name
  migration_set = takoform_sqlite_migration_set.app.name
  lifecycle {
    create_before_destroy = true
  }
}

resource "takoform_worker_bundle" "api" {
  revision_owner = "api"
  main_module    = "index.js"
  modules = [{
    name         = "index.js"
    content_type = "application/javascript+module"
    content_file = "${path.module}/index.js"
  }]
  lifecycle {
    create_before_destroy = true
  }
}

resource "takoform_worker_version" "api" {
  revision_owner = "api"
  worker         = takoform_module_worker.api.name
  bundle         = takoform_worker_bundle.api.name
  handlers       = ["fetch"]
  kv_bindings = [{
    name        = "SESSIONS"
    target_name = takoform_edge_kv_namespace.sessions.name
  }]
  bucket_bindings = [{
    name        = "UPLOADS"
    target_name = takoform_edge_object_bucket.uploads.name
  }]
  queue_producer_bindings = [{
    name        = "EVENTS"
    target_name = takoform_at_least_once_queue.events.name
  }]
  sqlite_bindings = [{
    name        = "DB"
    target_name = takoform_sqlite_database.app.name
  }]
  lifecycle {
    create_before_destroy = true
  }
}

resource "takoform_worker_deployment" "api" {
  name       = "api"
  depends_on = [takoform_sqlite_migration_application.app]
  worker     = takoform_module_worker.api.name
  versions = [{
    weight         = 10000
    worker_version = takoform_worker_version.api.name
  }]
}

resource "takoform_worker_endpoint" "api" {
  name       = "api"
  worker     = takoform_module_worker.api.name
  depends_on = [takoform_worker_deployment.api]
}

# Typed outputs (decision 0025): read .url directly, no jsondecode.
output "url" {
  value = takoform_worker_endpoint.api.url
}

output "hostname" {
  value = takoform_worker_endpoint.api.hostname
}

output "port" {
  value = takoform_worker_endpoint.api.port
}

output "migrations_ready" {
  value = takoform_sqlite_migration_application.app.ready
}
