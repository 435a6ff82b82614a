resource "takoform_sqlite_migration_set" "example" {
  revision_owner  = "team-a/sqlite-migration-set"
  manifest_digest = "sha256:9befda90d9d48f2ab66dc9222834aa61d4c72f586997903e9a1f7a3bdde1b9f3"

  lifecycle {
    create_before_destroy = true
  }
}
