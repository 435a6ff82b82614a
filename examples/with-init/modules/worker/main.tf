# One worker serving one JavaScript module at an endpoint: the worker, its code as a bundle,
# a version, a deployment of that version and the endpoint.

terraform {
  required_providers {
    takoform = { source = "takokit/takoform" }
  }
}

variable "name" {
  description = "Name of the worker and of what belongs to it."
  type        = string
}

variable "code_file" {
  description = "Path of the JavaScript module the worker runs."
  type        = string
}

resource "takoform_module_worker" "this" {
  name = var.name
}

resource "takoform_worker_bundle" "this" {
  revision_owner = var.name
  main_module    = "index.js"
  modules = [{
    name         = "index.js"
    content_type = "application/javascript+module"
    content_file = var.code_file
  }]
  lifecycle {
    create_before_destroy = true
  }
}

resource "takoform_worker_version" "this" {
  revision_owner = var.name
  worker         = takoform_module_worker.this.name
  bundle         = takoform_worker_bundle.this.name
  handlers       = ["fetch"]
  lifecycle {
    create_before_destroy = true
  }
}

resource "takoform_worker_deployment" "this" {
  name   = var.name
  worker = takoform_module_worker.this.name
  versions = [{
    weight         = 10000
    worker_version = takoform_worker_version.this.name
  }]
}

resource "takoform_worker_endpoint" "this" {
  name       = var.name
  worker     = takoform_module_worker.this.name
  depends_on = [takoform_worker_deployment.this]
}

output "url" {
  description = "The endpoint's URL, a typed output of the host."
  value       = takoform_worker_endpoint.this.url
}
