# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_at_least_once_queue.example prod/example-at-least-once-queue

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_at_least_once_queue.example '{"space":"prod","name":"example-at-least-once-queue","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"AtLeastOnceQueue","definitionVersion":"0.2.0","schemaDigest":"sha256:013dedcd03e506564c96719928b5ac7a6e4ec814f4fdf94d204823e46899b06a"}'
