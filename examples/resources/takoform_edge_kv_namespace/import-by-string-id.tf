import {
  to = takoform_edge_kv_namespace.example
  id = "prod/example-edge-kv-namespace"
}
