# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_edge_object_bucket.example prod/example-object-bucket

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_edge_object_bucket.example '{"space":"prod","name":"example-object-bucket","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"ObjectBucket","definitionVersion":"0.1.0","schemaDigest":"sha256:f14e3eec7395401251ff153b63e5fe993567801a568636cf312e6c8ae95f96a2"}'
