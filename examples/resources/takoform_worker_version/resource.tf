resource "takoform_worker_version" "example" {
  revision_owner = "team-a/worker-version"

  assets = {
    bundle             = "static-asset-bundle"
    not_found_handling = "none"
    run_worker_first   = false
  }

  bucket_bindings = [
    {
      name        = "MEDIA"
      target_name = "object-bucket"
    },
  ]

  bundle   = "worker-bundle"
  handlers = ["fetch"]

  kv_bindings = [
    {
      name        = "CACHE"
      target_name = "edge-kv-namespace"
    },
  ]

  queue_producer_bindings = [
    {
      name        = "EVENTS"
      target_name = "at-least-once-queue"
    },
  ]

  required_sensitive_vars = ["API_TOKEN"]

  service_bindings = [
    {
      name        = "AUTH"
      target_name = "auth-worker"
    },
  ]

  sqlite_bindings = [
    {
      name        = "DB"
      target_name = "sqlite-database"
    },
  ]

  vars_json = jsonencode({
    "LOG_LEVEL" = "info"
  })

  worker = "module-worker"

  lifecycle {
    create_before_destroy = true
  }
}
