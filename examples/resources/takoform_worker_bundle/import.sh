# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_bundle.example prod/example-worker-bundle

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_bundle.example '{"space":"prod","name":"example-worker-bundle","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"WorkerBundle","definitionVersion":"0.1.0","schemaDigest":"sha256:e0c6b6c949c31d6fefdc001b5dac2306c9b90b0b4470c91768b8162b46d48fd9"}'
