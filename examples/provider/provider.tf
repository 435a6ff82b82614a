terraform {
  required_providers {
    takoform = {
      source = "takokit/takoform"
    }
  }
}

variable "takoform_token" {
  description = "Bearer credential the host issued; or leave the provider's token unset and export TAKOFORM_TOKEN."
  type        = string
  sensitive   = true
}

provider "takoform" {
  endpoint = "https://host.example"
  space    = "prod"
  token    = var.takoform_token
}
