# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_version.example prod/example-worker-version

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_version.example '{"space":"prod","name":"example-worker-version","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"WorkerVersion","definitionVersion":"0.1.0","schemaDigest":"sha256:108cb747e167155011e938c32f5aa05a06f071accb5872416c82751e84673253"}'
