resource "takoform_worker_cron_trigger" "example" {
  name   = "example-worker-cron-trigger"
  cron   = "*/5 * * * *"
  worker = "module-worker"
}
