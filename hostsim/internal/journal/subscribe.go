package journal

// Subscribe returns a channel that receives a signal after events were added,
// and a cancel function. Signals coalesce: a subscriber that has not taken
// the last one misses nothing but the duplicate, and a writer never waits for
// a subscriber (a slow one reads later, from Since).
func (j *Journal) Subscribe() (wake <-chan struct{}, cancel func()) {
	ch := make(chan struct{}, 1)
	j.smu.Lock()
	defer j.smu.Unlock()
	var cur []chan struct{}
	if p := j.subs.Load(); p != nil {
		cur = *p
	}
	next := append(append([]chan struct{}(nil), cur...), ch)
	j.subs.Store(&next)
	return ch, func() {
		j.smu.Lock()
		defer j.smu.Unlock()
		p := j.subs.Load()
		if p == nil {
			return
		}
		keep := make([]chan struct{}, 0, len(*p))
		for _, c := range *p {
			if c != ch {
				keep = append(keep, c)
			}
		}
		j.subs.Store(&keep)
	}
}

// wake signals every subscriber without blocking.
func (j *Journal) wake() {
	p := j.subs.Load()
	if p == nil {
		return
	}
	for _, c := range *p {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}
