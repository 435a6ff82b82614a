# The getting-started configuration (docs/guides/getting-started.md): a worker that runs
# index.js behind an endpoint, with a KV namespace bound to it.

terraform {
  required_providers {
    takoform = { source = "takokit/takoform" }
  }
}

# Endpoint, token and space come from TAKOFORM_ENDPOINT, TAKOFORM_TOKEN and TAKOFORM_SPACE.
provider "takoform" {}

resource "takoform_module_worker" "hello" {
  name = "hello"
}

resource "takoform_edge_kv_namespace" "visits" {
  name = "visits"
}

# The code, uploaded from index.js beside this file. A bundle and a version are revisions:
# changing index.js makes a new one, and the deployment moves to it before the old one goes.
resource "takoform_worker_bundle" "hello" {
  revision_owner = "hello"
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

resource "takoform_worker_version" "hello" {
  revision_owner = "hello"
  worker         = takoform_module_worker.hello.name
  bundle         = takoform_worker_bundle.hello.name
  handlers       = ["fetch"]
  kv_bindings = [{
    name        = "VISITS"
    target_name = takoform_edge_kv_namespace.visits.name
  }]
  lifecycle {
    create_before_destroy = true
  }
}

resource "takoform_worker_deployment" "hello" {
  name   = "hello"
  worker = takoform_module_worker.hello.name
  versions = [{
    weight         = 10000
    worker_version = takoform_worker_version.hello.name
  }]
}

resource "takoform_worker_endpoint" "hello" {
  name       = "hello"
  worker     = takoform_module_worker.hello.name
  depends_on = [takoform_worker_deployment.hello]
}

# The endpoint's outputs are typed attributes: url and hostname are strings, port a number.
output "url" {
  value = takoform_worker_endpoint.hello.url
}

output "hostname" {
  value = takoform_worker_endpoint.hello.hostname
}

output "port" {
  value = takoform_worker_endpoint.hello.port
}
