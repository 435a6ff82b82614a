# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_deployment.example prod/example-worker-deployment

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_deployment.example '{"space":"prod","name":"example-worker-deployment","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"WorkerDeployment","definitionVersion":"0.1.0","schemaDigest":"sha256:16c62801e0757a26044e468f6d7d1684a484b66127fd4819bad996c53dba7bad"}'
