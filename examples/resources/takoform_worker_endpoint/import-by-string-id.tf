import {
  to = takoform_worker_endpoint.example
  id = "prod/example-worker-endpoint"
}
