resource "takoform_worker_deployment" "example" {
  name = "example-worker-deployment"

  versions = [
    {
      weight         = 10000
      worker_version = "worker-version"
    },
  ]

  worker = "module-worker"
}
