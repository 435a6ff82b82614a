resource "takoform_at_least_once_queue" "example" {
  name                      = "example-at-least-once-queue"
  message_retention_seconds = 345600
}
