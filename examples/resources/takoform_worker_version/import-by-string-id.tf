import {
  to = takoform_worker_version.example
  id = "prod/example-worker-version"
}
