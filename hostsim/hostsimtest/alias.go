package hostsimtest

import "github.com/takokit/takokit/hostsim/hostsimtest/record"

// Exchange is one request and the answer a host gave (record.Exchange).
type Exchange = record.Exchange

// Recorder is an http.RoundTripper that forwards every request and keeps each
// exchange (record.Recorder).
type Recorder = record.Recorder
