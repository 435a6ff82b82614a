import {
  to = takoform_worker_bundle.example
  id = "prod/example-worker-bundle"
}
