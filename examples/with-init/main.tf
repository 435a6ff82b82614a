# A configuration that needs `tofu init`: it calls a module (docs/guides/getting-started.md,
# "When a configuration needs tofu init"). Another provider in required_providers needs init
# the same way.

terraform {
  required_providers {
    takoform = { source = "takokit/takoform" }
  }
}

# Endpoint, token and space come from TAKOFORM_ENDPOINT, TAKOFORM_TOKEN and TAKOFORM_SPACE.
provider "takoform" {}

module "api" {
  source    = "./modules/worker"
  name      = "api"
  code_file = "${path.module}/api.js"
}

module "admin" {
  source    = "./modules/worker"
  name      = "admin"
  code_file = "${path.module}/admin.js"
}

output "api_url" {
  value = module.api.url
}

output "admin_url" {
  value = module.admin.url
}
