import {
  to = takoform_worker_deployment.example
  id = "prod/example-worker-deployment"
}
