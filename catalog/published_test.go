package catalog

import (
	"os"
	"testing"
)

// The recomputed digests of the published Edge Platform Family (docs/catalog-rules.md#other-catalogs).
var publishedForms = map[string][2]string{ // kind -> schemaDigest, packageDigest
	"ModuleWorker":       {"sha256:cea859e4a2c295dea985e0b26bbc70309d296e210b805facf4b5592e5f635616", "sha256:4041c1daf5b7ce74b8bcf507b837c9b13745e2b1bfdb1f662c33326283c3e008"},
	"WorkerBundle":       {"sha256:d7fd1bfc966a90b9f15ebfc6530c2465ee19b14fed3fef91c72502e799539f74", "sha256:00f37d9f9c974eb71fded615de362d67953983b1888c14ad418d18b959c2c42c"},
	"WorkerVersion":      {"sha256:5304e2c173b4fc55c72ca6926738025c45bc4c6a3b9ac175b8f592047d7011af", "sha256:900740816a2c15b7cc88fd2e818cf995bd1984e101be6db3ce14f2e212278420"},
	"WorkerDeployment":   {"sha256:4472ad0d06fd81036cf8fb709febbbb94e15fd113f7dd5509de2eeda6e441d46", "sha256:3c34512d949c68595bf811679447bea05914e762edf9ab597e81064082e5f757"},
	"WorkerCustomDomain": {"sha256:f97338e6eea8c41f81516f653d9e8e8b6bd4a83f5c81d6216493c08fabdabee0", "sha256:7bce62151373dd778fa288324f259b1958a66946cd570bbde1ebf259e3e40044"},
	"WorkerEndpoint":     {"sha256:ba7ae77f85faa46a7dbbe14651ccdb938e6f20e77216bbabd0ef450044c1c68f", "sha256:70401c3510312d3e3f9eb485b10acf0b0d9e22f25495464882a703bbab04be8a"},
	"WorkerCronTrigger":  {"sha256:a22ae8ec7019faec684cf47f4cb32a25aa40ebbd0e8f9a7ac93c066e5044a2a4", "sha256:5d6a8dd4e7458c5d66237ba931b9bebad02dbb149af88b709630d8fbca089816"},
	"EdgeKVNamespace":    {"sha256:c24609616f36229634e82a987b98da5fc4043cbf400d8ff918e77c19c64b1d7e", "sha256:790f567e482d49a6831f2f432270bf77b26b54a9eff1cc0e3095ccd9293291e3"},
	"ObjectBucket":       {"sha256:f5e064fab1432adbc8658a26962e74878fad34ec059b137002f358b4a9371f79", "sha256:a7f1a61f6ac1710705b3fdccc9d075f6aa12ae0c37857e231797cb91f4f62ad3"},
	"SQLiteDatabase":     {"sha256:7a88cb0a831050be300b5a2e8dbab4561507affe9aad6c14c600bdf5a39887d2", "sha256:33ecdd1346080469d2d1f4c0a5836dd0d15877f116b355ddfeec621f13ac547a"},
	"AtLeastOnceQueue":   {"sha256:46e1a90ac043300304e3c9512242ac7e5c5f25df90e7dfebe4932f717ef4efbc", "sha256:301130a2dacda683b7e4e8f94f88788439ee8ec12b1e69bcaa61c68af5830adf"},
	"QueueConsumer":      {"sha256:0be5f3315f2728d85a2744cd4c9d594c19b3784def7c8d7f5285740489a6b4ef", "sha256:7c66ce59b55885294cfbe97d762a2f94bfd310f8f35740a2a99213eaed7b8e5c"},
}

var publishedContracts = map[string]string{ // name@version -> schemaDigest
	"edge.kv@1.0.0":                      "sha256:58c8e9af97dabcd205422eca0b47fba51734503bc80a66867056dae28efe1cf8",
	"edge.objects@1.0.0":                 "sha256:292668cf530eb7946f25d313740991b3efa0406f40d74ec12d788d2933d13f96",
	"edge.sql@1.0.0":                     "sha256:cd33793132cd91c20cdbe782db500e86fa7a8ad2e2281b95116337d697dcac1b",
	"edge.queue@1.0.0":                   "sha256:e88be3a9bfb0eb202422483cfca8bf45ab74d60f96f8c4f3fe289f0f607510cf",
	"worker.service@1.0.0":               "sha256:8024073e25413c8906c3e189555a7485b4c7a6656e8a537fb2801f9b9682536e",
	"worker.runtime@1.0.0":               "sha256:48d5fe4ca3109d1235354fef99748f5d01b7e0c398f97a9354496a220dc7a579",
	"module-worker.edge-kv@1.0.0":        "sha256:cd5d49047209769f5aaeb6a0ccfb0840b6050147f477920cae59c798a0935c85",
	"module-worker.object-bucket@1.0.0":  "sha256:e9d54e1d5d496700cc369b46a91f7255ddb3821cc704100e851a7787a8e85956",
	"module-worker.sqlite@1.0.0":         "sha256:acebb655c739466aac6db0d34afa15e26709857f4060aec8a256e4bfef682c71",
	"module-worker.queue-producer@1.0.0": "sha256:dc9a083b54ae48180398590859da855dc1a4bdc1bf8312ed41e24394b2cdf49b",
	"module-worker.service@1.0.0":        "sha256:533546eeb2bdc43035f21e804c170558fdf44690bb957289e8007ee0027bfb60",
}

func loadPublished(t *testing.T) *Catalog {
	t.Helper()
	dir := referenceDir(t)
	c, err := Load(os.DirFS(dir))
	if err != nil {
		t.Fatalf("the published family in %s must load unchanged:\n%v", dir, err)
	}
	return c
}

func TestPublishedFamilyLoads(t *testing.T) {
	c := loadPublished(t)
	if got := len(c.Forms()); got != len(publishedForms) {
		t.Errorf("loaded %d forms, want %d", got, len(publishedForms))
	}
	for _, f := range c.Forms() {
		want, ok := publishedForms[f.Ref.Kind]
		if !ok {
			t.Errorf("unexpected published kind %s", f.Ref.Kind)
			continue
		}
		if f.Ref.SchemaDigest != want[0] || f.PackageDigest != want[1] {
			t.Errorf("%s: schemaDigest %s packageDigest %s; want %s %s", f.Ref.Kind, f.Ref.SchemaDigest, f.PackageDigest, want[0], want[1])
		}
	}
	got := map[string]string{}
	for _, i := range c.Interfaces() {
		got[i.Ref.Name+"@"+i.Ref.Version] = i.Ref.SchemaDigest
	}
	for _, b := range c.Bindings() {
		got[b.Ref.Name+"@"+b.Ref.Version] = b.Ref.SchemaDigest
	}
	if len(got) != len(publishedContracts) {
		t.Errorf("loaded %d contracts, want %d", len(got), len(publishedContracts))
	}
	for k, want := range publishedContracts {
		if got[k] != want {
			t.Errorf("%s: schemaDigest %s, want %s", k, got[k], want)
		}
	}
	if n := countRelations(c); n != 15 {
		t.Errorf("published family has %d relations, want 15", n)
	}

}

func countRelations(c *Catalog) int {
	n := 0
	for _, k := range c.Kinds() {
		n += len(k.DefaultCreate().Relations)
	}
	return n
}

func allDigests(c *Catalog) []string {
	var out []string
	for _, f := range c.Forms() {
		out = append(out, f.Ref.SchemaDigest, f.PackageDigest)
	}
	for _, i := range c.Interfaces() {
		out = append(out, i.Ref.SchemaDigest)
	}
	for _, b := range c.Bindings() {
		out = append(out, b.Ref.SchemaDigest)
	}
	return out
}
