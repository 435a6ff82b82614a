import {
  to = takoform_edge_object_bucket.example
  id = "prod/example-object-bucket"
}
