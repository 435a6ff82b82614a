package store

import "github.com/takokit/takokit/hostsim/internal/store/bodycodec"

// Recorded answers are kept compact by bodycodec: the first answer recorded
// for a shape becomes that shape's dictionary (the dictionaries table), and
// every answer of the shape is stored encoded against it (docs/decisions.md:
// hostsim memory).

const maxDicts = 512 // shapes are Forms; past this bodies stay plain

// dictFor finds the dictionary of body's shape, creating it from body in
// the open transaction when the shape is new; nil when body has no shape.
func dictFor(q Q, v view, body []byte) (*bodycodec.Dict, error) {
	shape := bodycodec.Shape(body)
	if shape == nil {
		return nil, nil
	}
	if d := v.DictByShape(shape); d != nil {
		return d, nil
	}
	if v.Dicts() >= maxDicts {
		return nil, nil
	}
	var id int64
	if err := q.QueryRow(`INSERT INTO dictionaries (body) VALUES (?) RETURNING id`, body).Scan(&id); err != nil {
		return nil, err
	}
	d := bodycodec.NewDict(id, append([]byte(nil), body...))
	v.AddDict(d)
	return d, nil
}
