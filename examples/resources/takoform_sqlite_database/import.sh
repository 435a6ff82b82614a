# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_sqlite_database.example prod/example-sqlite-database

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_sqlite_database.example '{"space":"prod","name":"example-sqlite-database","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"SQLiteDatabase","definitionVersion":"0.1.0","schemaDigest":"sha256:3bb200d3b64f856dfc99dec573edf18071dbc6734b15c9dd139042e7afce2bb6"}'
