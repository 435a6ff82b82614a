# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_sqlite_database.example prod/example-sqlite-database

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_sqlite_database.example '{"space":"prod","name":"example-sqlite-database","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"SQLiteDatabase","definitionVersion":"0.1.0","schemaDigest":"sha256:9d979b6c681543cc7a3ec79c6022c02bfe73a901d3f2d665b3dfd92967708f09"}'
