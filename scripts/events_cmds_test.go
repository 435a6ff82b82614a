package scripts

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// journalEvent is one event of GET /_sim/events.
type journalEvent struct {
	Seq  int64           `json:"seq"`
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// readJournal reads NAME's whole journal, page by page.
func readJournal(p *simProc) ([]journalEvent, error) {
	var all []journalEvent
	since := int64(0)
	for {
		var page struct {
			Events []journalEvent `json:"events"`
			Next   int64          `json:"next"`
		}
		if err := adminDo(p, "GET", "/events?since="+strconv.FormatInt(since, 10), nil, &page); err != nil {
			return nil, err
		}
		if len(page.Events) == 0 {
			return all, nil
		}
		all = append(all, page.Events...)
		since = page.Next
	}
}

// eventFilter is FIELD=VALUE,... over an event's data: FIELD is a dotted path,
// VALUE is compared with the member as a string or as JSON text (numbers, booleans).
type eventFilter map[string]string

func parseEventFilter(s string) (eventFilter, error) {
	f := eventFilter{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(part, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("filter %q: %q is not FIELD=VALUE", s, part)
		}
		f[k] = v
	}
	return f, nil
}

func (f eventFilter) matches(data json.RawMessage) bool {
	var doc any
	if json.Unmarshal(data, &doc) != nil {
		return false
	}
	for path, want := range f {
		cur := doc
		for _, seg := range strings.Split(path, ".") {
			m, ok := cur.(map[string]any)
			if !ok {
				return false
			}
			cur = m[seg]
		}
		if s, ok := cur.(string); ok {
			if s != want {
				return false
			}
			continue
		}
		b, _ := json.Marshal(cur)
		if cur == nil || string(b) != want {
			return false
		}
	}
	return true
}

// cmdHostsimEvents: hostsim-events NAME TYPE [FIELD=VALUE,...] OP N.
func cmdHostsimEvents(ts *testscript.TestScript, args []string) error {
	if len(args) != 4 && len(args) != 5 {
		return usageError("need NAME TYPE [FIELD=VALUE,...] OP N")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	typ, op, nText := args[1], args[len(args)-2], args[len(args)-1]
	filter := eventFilter{}
	if len(args) == 5 {
		if filter, err = parseEventFilter(args[2]); err != nil {
			return usageError(err.Error())
		}
	}
	want, err := strconv.ParseInt(nText, 10, 64)
	if err != nil {
		return usageError("N must be an integer")
	}
	if _, err := compare(0, op, 0); err != nil {
		return err
	}
	events, err := readJournal(p)
	if err != nil {
		return err
	}
	var got int64
	var seen []string
	for _, e := range events {
		if e.Type == typ && filter.matches(e.Data) {
			got++
			seen = append(seen, fmt.Sprintf("#%d %s", e.Seq, e.Data))
		}
	}
	ok, _ := compare(got, op, want)
	if !ok {
		return fmt.Errorf("%d %s events match %v, want %s %d:\n%s", got, typ, map[string]string(filter), op, want, strings.Join(seen, "\n"))
	}
	ts.Logf("%d %s events match %v (%s %d holds)", got, typ, map[string]string(filter), op, want)
	return nil
}

// cmdHostsimDistinct: hostsim-distinct NAME TYPE FIELD [FIELD=VALUE,...] OP N counts
// the distinct values of FIELD (a dotted path) among the matching events; a
// matching event without FIELD (or with it empty) fails the command.
func cmdHostsimDistinct(ts *testscript.TestScript, args []string) error {
	if len(args) != 5 && len(args) != 6 {
		return usageError("need NAME TYPE FIELD [FIELD=VALUE,...] OP N")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	typ, field, op, nText := args[1], args[2], args[len(args)-2], args[len(args)-1]
	filter := eventFilter{}
	if len(args) == 6 {
		if filter, err = parseEventFilter(args[3]); err != nil {
			return usageError(err.Error())
		}
	}
	want, err := strconv.ParseInt(nText, 10, 64)
	if err != nil {
		return usageError("N must be an integer")
	}
	if _, err := compare(0, op, 0); err != nil {
		return err
	}
	events, err := readJournal(p)
	if err != nil {
		return err
	}
	values := map[string]int{}
	lacking := 0
	for _, e := range events {
		if e.Type == typ && filter.matches(e.Data) {
			if v := fieldText(e.Data, field); v != "" {
				values[v]++
			} else {
				lacking++
			}
		}
	}
	if lacking > 0 {
		return fmt.Errorf("%d %s events matching %v carry no %s", lacking, typ, map[string]string(filter), field)
	}
	ok, _ := compare(int64(len(values)), op, want)
	if !ok {
		return fmt.Errorf("%d distinct %s among the %s events matching %v (%v), want %s %d", len(values), field, typ, map[string]string(filter), values, op, want)
	}
	ts.Logf("%d distinct %s among the %s events matching %v: %v (%s %d holds)", len(values), field, typ, map[string]string(filter), values, op, want)
	return nil
}

// fieldText is the member at a dotted path of an event's data, as a string
// (JSON text for anything but a string; "" when absent).
func fieldText(data json.RawMessage, path string) string {
	var cur any
	if json.Unmarshal(data, &cur) != nil {
		return ""
	}
	for _, seg := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = m[seg]
	}
	if s, ok := cur.(string); ok {
		return s
	}
	if cur == nil {
		return ""
	}
	b, _ := json.Marshal(cur)
	return string(b)
}
