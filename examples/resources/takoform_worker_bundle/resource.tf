resource "takoform_worker_bundle" "example" {
  revision_owner  = "team-a/worker-bundle"
  manifest_digest = "sha256:3f1c5b6e0a9d7c2b4e8f1a0d6c3b9e2f7a5d1c8b0e4f6a2d9c7b3e1f5a8d0c6b"

  lifecycle {
    create_before_destroy = true
  }
}
