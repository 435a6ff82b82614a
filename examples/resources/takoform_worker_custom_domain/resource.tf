resource "takoform_worker_custom_domain" "example" {
  name     = "example-worker-custom-domain"
  hostname = "shop.takokit.invalid"
  worker   = "module-worker"
}
