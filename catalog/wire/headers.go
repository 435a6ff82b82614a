package wire

// Header names of the lane (docs/protocol.md#headers). Go canonicalizes header
// names, so these are written in canonical form.
const (
	HeaderAuthorization      = "Authorization"
	HeaderIdempotencyKey     = "Idempotency-Key"
	HeaderIfNoneMatch        = "If-None-Match"
	HeaderIfMatch            = "If-Match"
	HeaderExpectedGeneration = "Takoform-Expected-Generation"
	HeaderConformanceProbe   = "Takoform-Conformance-Probe"
	HeaderETag               = "Etag"
	HeaderRetryAfter         = "Retry-After"
	HeaderLocation           = "Location"
	HeaderWWWAuthenticate    = "Www-Authenticate"
	HeaderContentType        = "Content-Type"
)

// ContentTypeJSON is the media type of every JSON body of the lane.
const ContentTypeJSON = "application/json"
