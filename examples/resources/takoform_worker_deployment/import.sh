# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_deployment.example prod/example-worker-deployment

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_deployment.example '{"space":"prod","name":"example-worker-deployment","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"WorkerDeployment","definitionVersion":"0.1.0","schemaDigest":"sha256:bc7e1e3b98599fa75f015b5b3952bfede2b5f8cc30676f1b84df886555df5666"}'
