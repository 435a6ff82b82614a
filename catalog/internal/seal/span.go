package seal

import (
	"encoding/json"
	"fmt"

	"github.com/takokit/takokit/catalog/wire"
)

// node is one JSON value with the byte span it occupies in its document. The seal
// tool needs spans, not just values, because it rewrites digest strings in place and
// must leave every other byte exactly as authored.
type node struct {
	kind       byte // 'o' object, 'a' array, 's' string, 'v' any other scalar
	start, end int  // raw[start:end] is the value's text
	str        string
	keys       []string
	members    map[string]*node
	elems      []*node
}

// parse reads a document that has already passed the strict I-JSON gate, so it only
// has to track positions; syntax errors here mean the gate was bypassed.
func parse(raw []byte) (*node, error) {
	if err := wire.CheckIJSON(raw); err != nil {
		return nil, err
	}
	p := &parser{raw: raw}
	p.ws()
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	return n, nil
}

type parser struct {
	raw []byte
	pos int
}

func (p *parser) ws() {
	for p.pos < len(p.raw) {
		switch p.raw[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() (*node, error) {
	if p.pos >= len(p.raw) {
		return nil, fmt.Errorf("unexpected end of JSON at byte %d", p.pos)
	}
	switch p.raw[p.pos] {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		return p.string()
	default:
		start := p.pos
		for p.pos < len(p.raw) {
			c := p.raw[p.pos]
			if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				break
			}
			p.pos++
		}
		return &node{kind: 'v', start: start, end: p.pos}, nil
	}
}

func (p *parser) object() (*node, error) {
	n := &node{kind: 'o', start: p.pos, members: map[string]*node{}}
	p.pos++
	p.ws()
	if p.raw[p.pos] == '}' {
		p.pos++
		n.end = p.pos
		return n, nil
	}
	for {
		p.ws()
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		p.ws()
		p.pos++ // ':'
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.keys = append(n.keys, k.str)
		n.members[k.str] = v
		p.ws()
		c := p.raw[p.pos]
		p.pos++
		if c == '}' {
			n.end = p.pos
			return n, nil
		}
	}
}

func (p *parser) array() (*node, error) {
	n := &node{kind: 'a', start: p.pos}
	p.pos++
	p.ws()
	if p.raw[p.pos] == ']' {
		p.pos++
		n.end = p.pos
		return n, nil
	}
	for {
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		p.ws()
		c := p.raw[p.pos]
		p.pos++
		if c == ']' {
			n.end = p.pos
			return n, nil
		}
	}
}

func (p *parser) string() (*node, error) {
	start := p.pos
	p.pos++
	for p.pos < len(p.raw) {
		switch p.raw[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '"':
			p.pos++
			n := &node{kind: 's', start: start, end: p.pos}
			if err := json.Unmarshal(p.raw[start:p.pos], &n.str); err != nil {
				return nil, fmt.Errorf("string at byte %d: %w", start, err)
			}
			return n, nil
		}
		p.pos++
	}
	return nil, fmt.Errorf("unterminated string at byte %d", start)
}

// member returns the string value of a member, and whether it is a string.
func (n *node) member(key string) (string, bool) {
	if n == nil || n.kind != 'o' {
		return "", false
	}
	m, ok := n.members[key]
	if !ok || m.kind != 's' {
		return "", false
	}
	return m.str, true
}

// hasExactly reports whether the object's member names are exactly keys.
func (n *node) hasExactly(keys ...string) bool {
	if n.kind != 'o' || len(n.keys) != len(keys) {
		return false
	}
	for _, k := range keys {
		if _, ok := n.members[k]; !ok {
			return false
		}
	}
	return true
}
