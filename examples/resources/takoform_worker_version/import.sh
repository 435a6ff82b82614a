# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_version.example prod/example-worker-version

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_version.example '{"space":"prod","name":"example-worker-version","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"WorkerVersion","definitionVersion":"0.1.0","schemaDigest":"sha256:18a1b3466d6747132b68b225b609445aba3c408827bf378ef41e61593b7cc84c"}'
