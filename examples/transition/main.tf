# A Form transition to try (docs/guides/transitions.md): a queue created under AtLeastOnceQueue
# 0.1.0, moved to 0.2.0 when the transition variable names the declared marker.

terraform {
  required_providers {
    takoform = { source = "takokit/takoform" }
  }
}

# Endpoint, token and space come from TAKOFORM_ENDPOINT, TAKOFORM_TOKEN and TAKOFORM_SPACE.
provider "takoform" {}

variable "transition" {
  description = "A transition marker of catalog/data/v1beta1/transitions.json, or null to stay on 0.1.0."
  type        = string
  default     = null
}

resource "takoform_at_least_once_queue" "orders" {
  name                      = "orders"
  message_retention_seconds = 345600
  # Without a marker the queue stays on 0.1.0; with one, the version is left to the marker.
  form_definition_version = var.transition == null ? "0.1.0" : null
  form_transition         = var.transition
}

output "uid" {
  value = takoform_at_least_once_queue.orders.uid
}

output "generation" {
  value = takoform_at_least_once_queue.orders.generation
}

output "form_definition_version" {
  value = takoform_at_least_once_queue.orders.form_definition_version
}
