# The configuration the dashboard's browser test applies: two served workers, "api" with an
# endpoint (typed outputs) and "web" whose endpoint exists only when var.second_endpoint is set
# (the write a fault breaks); a queue created on an older Form version (a Form transition); a KV
# namespace the host accepts without finishing (a pending operation).

terraform {
  required_providers {
    takoform = { source = "takokit/takoform" }
  }
}

provider "takoform" {}

variable "form_version" {
  type    = string
  default = null
}

variable "marker" {
  type    = string
  default = null
}

variable "second_endpoint" {
  type    = bool
  default = false
}

locals {
  workers = toset(["api", "web"])
}

resource "takoform_module_worker" "w" {
  for_each = local.workers
  name     = each.key
}

resource "takoform_worker_bundle" "b" {
  for_each       = local.workers
  revision_owner = each.key
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

resource "takoform_worker_version" "v" {
  for_each                = local.workers
  revision_owner          = each.key
  worker                  = takoform_module_worker.w[each.key].name
  bundle                  = takoform_worker_bundle.b[each.key].name
  handlers                = ["fetch"]
  vars_json               = jsonencode({ LOG_LEVEL = "info" })
  required_sensitive_vars = ["STRIPE_SECRET"]
  lifecycle {
    create_before_destroy = true
  }
}

resource "takoform_worker_deployment" "d" {
  for_each = local.workers
  name     = each.key
  worker   = takoform_module_worker.w[each.key].name
  versions = [{
    weight         = 10000
    worker_version = takoform_worker_version.v[each.key].name
  }]
}

resource "takoform_worker_endpoint" "api" {
  name       = "api"
  worker     = takoform_module_worker.w["api"].name
  depends_on = [takoform_worker_deployment.d]
}

resource "takoform_worker_endpoint" "web" {
  count          = var.second_endpoint ? 1 : 0
  name           = "web"
  worker         = takoform_module_worker.w["web"].name
  create_timeout = "5s"
  depends_on     = [takoform_worker_deployment.d]
}

resource "takoform_at_least_once_queue" "orders" {
  name                      = "orders"
  message_retention_seconds = 345600
  form_definition_version   = var.form_version
  form_transition           = var.marker
}

resource "takoform_edge_kv_namespace" "sessions" {
  name           = "sessions"
  create_timeout = "2s"
}

output "endpoint" {
  value = {
    url      = takoform_worker_endpoint.api.url
    hostname = takoform_worker_endpoint.api.hostname
    port     = takoform_worker_endpoint.api.port
  }
}
