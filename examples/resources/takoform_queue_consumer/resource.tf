resource "takoform_queue_consumer" "example" {
  name                      = "example-queue-consumer"
  dead_letter_queue         = "dead-letters"
  max_batch_size            = 10
  max_batch_timeout_seconds = 5
  max_concurrency           = 4
  max_retries               = 3
  queue                     = "at-least-once-queue"
  retry_delay_seconds       = 60
  worker                    = "module-worker"
}
