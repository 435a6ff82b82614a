# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_cron_trigger.example prod/example-worker-cron-trigger

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_cron_trigger.example '{"space":"prod","name":"example-worker-cron-trigger","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"WorkerCronTrigger","definitionVersion":"0.1.0","schemaDigest":"sha256:cf56f3105e91f358de18ff76a40435ee876ffb479d85ac270622925c58459c0b"}'
