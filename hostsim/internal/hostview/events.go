package hostview

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/takokit/takokit/hostsim/internal/journal"
)

// Subject is the resource a journal event names, as far as its data says:
// mutations and Form transition steps name tenant, space, kind, name and
// uid; fault firings kind and resource name; requests the tenant and, on
// resource routes, kind and name (the space travels in the query, which the
// journal does not keep); operation events kind and name.
type Subject struct {
	Tenant, Space, Kind, Name, UID string
}

// EventSubject reads the subject of one event; members the event does not
// carry stay empty.
func EventSubject(ev journal.Event) Subject {
	var d struct {
		Tenant   string `json:"tenant"`
		Space    string `json:"space"`
		Kind     string `json:"kind"`
		Name     string `json:"name"`
		UID      string `json:"uid"`
		Resource string `json:"resource"`
		Path     string `json:"path"`
	}
	_ = json.Unmarshal(ev.Data, &d)
	s := Subject{Tenant: d.Tenant, Space: d.Space, Kind: d.Kind, Name: d.Name, UID: d.UID}
	switch ev.Type {
	case "fault":
		s.Name = d.Resource
	case "request":
		s.Kind, s.Name = resourceInPath(d.Path)
	}
	return s
}

// resourceInPath finds kind and name in a lane path
// …/resources/{group}/{version}/{kind}/{name}[/…] (docs/protocol.md#routes).
func resourceInPath(escaped string) (kind, name string) {
	_, rest, _ := strings.Cut(escaped, "/resources/") // none: rest "" has too few segments
	seg := strings.Split(rest, "/")
	if len(seg) < 4 {
		return "", ""
	}
	kind, _ = url.PathUnescape(seg[2])
	name, _ = url.PathUnescape(seg[3])
	return kind, name
}

// Names reports whether the event is about r: by uid when the event carries
// one (another incarnation of the name is another resource), else by kind
// and name within the tenant and space the event names.
func (s Subject) Names(r *Resource) bool {
	if s.UID != "" {
		return s.UID == r.UID
	}
	return s.Kind == r.Kind && s.Name == r.Name && // a stored resource has a name, so an event's empty one is none
		(s.Tenant == "" || s.Tenant == r.Tenant) && (s.Space == "" || s.Space == r.Space)
}

// LastEvent is the number of the newest journal event (0 before the first).
// A live view renders what it holds up to it and follows from there.
func (s *Source) LastEvent() int64 { return s.Journal.Last() }

// Follow returns up to limit events after the number after, as the journal
// holds them now: Events without its error, for a live view following the
// journal.
func (s *Source) Follow(after int64, limit int) []journal.Event {
	evs, _ := s.Journal.Since(context.Background(), after, limit)
	return evs
}

// RecentEvents returns, oldest first, the newest n events numbered up to
// upTo that keep accepts (nil keeps every event). It reads the journal
// backwards in chunks, so a view of one resource does not copy the whole ring.
func (s *Source) RecentEvents(upTo int64, n int, keep func(journal.Event) bool) []journal.Event {
	const chunk = 1000
	var found []journal.Event // newest first
	for hi := upTo; hi > 0 && len(found) < n; hi -= chunk {
		lo := max(hi-chunk, 0)
		evs := s.Follow(lo, int(hi-lo))
		for i := len(evs) - 1; i >= 0 && len(found) < n; i-- {
			if evs[i].Seq <= hi && (keep == nil || keep(evs[i])) {
				found = append(found, evs[i])
			}
		}
		if len(evs) == 0 || evs[0].Seq > lo+1 {
			break // the ring dropped what is older
		}
	}
	for i, j := 0, len(found)-1; i < j; i, j = i+1, j-1 {
		found[i], found[j] = found[j], found[i]
	}
	return found
}

// ResourceEvents returns, oldest first, the newest n events up to upTo that
// are about r.
func (s *Source) ResourceEvents(r *Resource, upTo int64, n int) []journal.Event {
	return s.RecentEvents(upTo, n, func(ev journal.Event) bool { return EventSubject(ev).Names(r) })
}
