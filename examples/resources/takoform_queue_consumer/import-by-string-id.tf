import {
  to = takoform_queue_consumer.example
  id = "prod/example-queue-consumer"
}
