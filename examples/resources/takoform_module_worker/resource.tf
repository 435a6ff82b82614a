resource "takoform_module_worker" "example" {
  name = "example-module-worker"
}
