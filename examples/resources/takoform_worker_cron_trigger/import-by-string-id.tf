import {
  to = takoform_worker_cron_trigger.example
  id = "prod/example-worker-cron-trigger"
}
