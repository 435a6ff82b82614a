import {
  to = takoform_worker_custom_domain.example
  id = "prod/example-worker-custom-domain"
}
