# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_bundle.example prod/example-worker-bundle

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_bundle.example '{"space":"prod","name":"example-worker-bundle","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"WorkerBundle","definitionVersion":"0.1.0","schemaDigest":"sha256:7d3a2cf208b09541c080e6a0138f9b07efe0b8235e384cba496b6da442797301"}'
