package main

import (
	"net"
	"testing"
)

// TestHostURLSaysWhereAndWhetherExposed: a loopback address prints as it is and is
// not exposed; every interface prints as 127.0.0.1 (the URL that works here) and
// is exposed, as is a specific outward address. No socket is opened.
func TestHostURLSaysWhereAndWhetherExposed(t *testing.T) {
	for _, c := range []struct {
		addr    net.Addr
		url     string
		exposed bool
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8484}, "http://127.0.0.1:8484", false},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 8484}, "http://[::1]:8484", false},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8484}, "http://127.0.0.1:8484", true},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 8484}, "http://127.0.0.1:8484", true},
		{&net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 80}, "http://192.0.2.7:80", true},
	} {
		url, exposed := hostURL(c.addr)
		if url != c.url || exposed != c.exposed {
			t.Errorf("hostURL(%s) = %s, %v; want %s, %v", c.addr, url, exposed, c.url, c.exposed)
		}
	}
}
