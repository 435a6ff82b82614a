# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_object_bucket.example prod/example-object-bucket

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_object_bucket.example '{"space":"prod","name":"example-object-bucket","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"ObjectBucket","definitionVersion":"0.1.0","schemaDigest":"sha256:ac37491ea0340391e56d86edc8123b39111103411596ad3221a8192fa4a3a158"}'
