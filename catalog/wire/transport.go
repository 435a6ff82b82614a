package wire

import (
	"errors"
	"net/url"
)

// TransportCause is why a request got no answer, without net/http's wrapper: a
// *url.Error repeats the request's method and quoted URL, which the provider's and
// conformance's messages already name once, in their own words. Any other error is
// returned as it is.
func TransportCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
