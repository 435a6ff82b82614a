package hostsim_test

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// An answer without a body is framed by Content-Length: 0, never sent chunked.
// (Flushing it before the handler returned made it chunked, and a reverse proxy
// in front of hostsim then lost the connection under it now and then.)
func TestBodylessAnswersAreNotChunked(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t)})
	alice := newClient(t, sim.URL, "sim-primary")
	js := []byte(allHandlers)
	blob := wire.RawDigest(js)
	id := fmt.Sprint(alice.start(manifestOf("index.js", "application/javascript+module", len(js), blob)).status(201).json()["uploadId"])

	conn, err := net.Dial("tcp", strings.TrimPrefix(sim.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req, _ := http.NewRequest("PUT", sim.URL+api+"/artifacts/uploads/"+id+"/blobs/"+blob, bytes.NewReader(js))
	req.Header.Set("Authorization", "Bearer sim-primary")
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 201 || len(resp.TransferEncoding) != 0 || resp.ContentLength != 0 {
		t.Fatalf("blob PUT answered %d with Transfer-Encoding %v and Content-Length %d; want 201, not chunked, Content-Length 0",
			resp.StatusCode, resp.TransferEncoding, resp.ContentLength)
	}
}
