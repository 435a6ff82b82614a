import {
  to = takoform_sqlite_migration_application.example
  id = "prod/example-sqlite-migration-application"
}
