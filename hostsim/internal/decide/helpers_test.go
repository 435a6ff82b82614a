package decide

import (
	"encoding/json"

	"github.com/takokit/takokit/hostsim/internal/stored"
)

type storeResource = stored.Resource

func wireDecode(s string, v any) error { return json.Unmarshal([]byte(s), v) }
