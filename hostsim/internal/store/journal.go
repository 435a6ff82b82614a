package store

import "encoding/json"

// MaxEvents bounds the journal so memory grows with resources, not requests.
const MaxEvents = 50000

// Event is one journal entry.
type Event struct {
	Seq  int64           `json:"seq"`
	At   string          `json:"at"`
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// AppendEvent writes one journal entry.
func AppendEvent(q Q, at, typ string, data []byte) error {
	if _, err := q.Exec(`INSERT INTO events (at, type, data) VALUES (?,?,?)`, at, typ, string(data)); err != nil {
		return err
	}
	return nil
}

// TrimEvents drops the oldest entries beyond MaxEvents.
func TrimEvents(q Q) error {
	_, err := q.Exec(`DELETE FROM events WHERE seq <= (SELECT max(seq) FROM events) - ?`, MaxEvents)
	return err
}

// EventsSince returns up to limit entries with seq > since.
func EventsSince(q Q, since int64, limit int) ([]Event, error) {
	rows, err := q.Query(`SELECT seq, at, type, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?`, since, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Event{}
	for rows.Next() {
		var e Event
		var d string
		if err := rows.Scan(&e.Seq, &e.At, &e.Type, &d); err != nil {
			return nil, err
		}
		e.Data = json.RawMessage(d)
		out = append(out, e)
	}
	return out, rows.Err()
}
