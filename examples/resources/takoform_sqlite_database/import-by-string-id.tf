import {
  to = takoform_sqlite_database.example
  id = "prod/example-sqlite-database"
}
