# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_at_least_once_queue.example prod/example-at-least-once-queue

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_at_least_once_queue.example '{"space":"prod","name":"example-at-least-once-queue","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"AtLeastOnceQueue","definitionVersion":"0.2.0","schemaDigest":"sha256:3be8b96c1c018646d84d04b6fe904b78ebe3e68b4fcffa8ca01adf0ee05787b7"}'
