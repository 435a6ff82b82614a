package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// ErrTrailingData is DecodeNumbers' refusal of bytes after the one JSON value.
var ErrTrailingData = errors.New("trailing data after the JSON value")

// DecodeNumbers decodes data, exactly one JSON value, into v with every number kept
// as a json.Number: its text, so 1e3 and 1000 stay apart where a rule compares them
// and no integer past 2^53 loses digits. Anything but white space after the value is
// refused (ErrTrailingData), as json.Unmarshal refuses it; a json.Decoder on its own
// reads the first value and leaves the rest unread.
func DecodeNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return ErrTrailingData
	}
	return nil
}
