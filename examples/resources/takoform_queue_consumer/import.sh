# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_queue_consumer.example prod/example-queue-consumer

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_queue_consumer.example '{"space":"prod","name":"example-queue-consumer","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"QueueConsumer","definitionVersion":"0.1.0","schemaDigest":"sha256:289723d645ca383892fce5aa86f3b15197e02b3a95db8801d13997ce22ced034"}'
