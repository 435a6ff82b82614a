# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_queue_consumer.example prod/example-queue-consumer

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_queue_consumer.example '{"space":"prod","name":"example-queue-consumer","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"QueueConsumer","definitionVersion":"0.1.0","schemaDigest":"sha256:b11e77043a48867e48faf0c594e5d757f71a68b21c6795eb8afad284200d262b"}'
