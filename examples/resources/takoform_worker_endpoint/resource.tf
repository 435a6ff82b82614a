resource "takoform_worker_endpoint" "example" {
  name   = "example-worker-endpoint"
  worker = "module-worker"
}

output "hostname" {
  value = takoform_worker_endpoint.example.hostname
}

output "port" {
  value = takoform_worker_endpoint.example.port
}

output "url" {
  value = takoform_worker_endpoint.example.url
}
