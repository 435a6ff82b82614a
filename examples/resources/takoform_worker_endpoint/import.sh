# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_endpoint.example prod/example-worker-endpoint

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_endpoint.example '{"space":"prod","name":"example-worker-endpoint","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"WorkerEndpoint","definitionVersion":"0.2.0","schemaDigest":"sha256:49f95d33f707726a0c11ad4b78e0204a2e44de2c9d5400706aee9d9fdd2bd83c"}'
