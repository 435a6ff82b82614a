package main

import (
	"encoding/json"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/takokit/takokit/catalog/wire"
)

// serveNull answers every request 200 with a small JSON body after draining
// the request: the cheapest server the same client can talk to.
func serveNull(args []string) error {
	fs := flag.NewFlagSet("bench null", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	ready := fs.String("ready-file", "", "write {url, pid} here once listening")
	if err := fs.Parse(args); err != nil {
		return err
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	body := []byte(`{}`)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set(wire.HeaderContentType, wire.ContentTypeJSON)
		_, _ = w.Write(body)
	})}
	return serveUntilSignalled(srv, l, *ready)
}

// serveUntilSignalled writes {url, pid, goMaxProcs} to ready (when set) once l listens, then
// serves until SIGINT or SIGTERM closes srv.
func serveUntilSignalled(srv *http.Server, l net.Listener, ready string) error {
	if ready != "" {
		b, _ := json.Marshal(map[string]any{"url": "http://" + l.Addr().String(), "pid": os.Getpid(), "goMaxProcs": runtime.GOMAXPROCS(0)})
		tmp := ready + ".tmp"
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, ready); err != nil {
			return err
		}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() { <-sig; _ = srv.Close() }()
	if err := srv.Serve(l); err != http.ErrServerClosed {
		return err
	}
	return nil
}
