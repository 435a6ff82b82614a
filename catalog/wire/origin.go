package wire

import (
	"net"
	"net/url"
	"strings"
)

// SchemelessOrigin reads an endpoint written as host[:port], with no scheme (the
// way hostsim's --addr is written), and returns the origin to write instead:
// http:// for a loopback host, https:// otherwise. ok is false when raw has a
// scheme or names no host. The provider and conformance say it to a user who
// wrote such an endpoint.
func SchemelessOrigin(raw string) (origin string, ok bool) {
	if strings.Contains(raw, "://") {
		return "", false
	}
	u, err := url.Parse("http://" + raw)
	if err != nil || u.Host == "" {
		return "", false
	}
	if IsLoopbackHost(u.Hostname()) {
		return "http://" + u.Host, true
	}
	return "https://" + u.Host, true
}

// IsLoopbackHost reports whether a URL's host name is this machine: localhost (in
// any case) or a loopback address.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
