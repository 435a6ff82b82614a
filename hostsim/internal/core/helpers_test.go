package core

import (
	"encoding/json"

	"github.com/takokit/takokit/hostsim/internal/store"
)

type storeResource = store.Resource

func wireDecode(s string, v any) error { return json.Unmarshal([]byte(s), v) }
