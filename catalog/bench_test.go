package catalog

import "testing"

// BenchmarkLoadEmbedded measures a full load of the embedded catalog (hostsim and
// the provider pay it once at start).
func BenchmarkLoadEmbedded(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Load(EmbeddedFS()); err != nil {
			b.Fatal(err)
		}
	}
}
