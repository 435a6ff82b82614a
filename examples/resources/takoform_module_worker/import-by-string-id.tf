import {
  to = takoform_module_worker.example
  id = "prod/example-module-worker"
}
