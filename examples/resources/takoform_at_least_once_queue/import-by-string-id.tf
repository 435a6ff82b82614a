import {
  to = takoform_at_least_once_queue.example
  id = "prod/example-at-least-once-queue"
}
