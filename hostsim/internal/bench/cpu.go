package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// clockTicks is the kernel's USER_HZ (the unit of /proc/PID/stat times); 100 on
// every Linux this harness runs on.
const clockTicks = 100

// procCPU is the CPU time a process (all its threads, user and system) has
// used so far, read from its CPU-time clock: the scheduler's nanosecond
// account. /proc/PID/stat counts in ticks of 10 ms, too coarse for a round of
// the null server with 8 workers (about 0.25 s, so 25 ticks: one tick more or
// less moved that round's ratio by 4%). Where the clock cannot be read, the
// ticks are used.
func procCPU(pid int) (time.Duration, error) {
	if d, err := clockCPU(pid); err == nil {
		return d, nil
	}
	return tickCPU(pid)
}

// clockCPU reads the process-wide scheduler clock of pid
// (clock_getcpuclockid(3): the clock id is ^pid<<3 | CPUCLOCK_SCHED).
func clockCPU(pid int) (time.Duration, error) {
	const cpuclockSched = 2
	var ts unix.Timespec
	if err := unix.ClockGettime(int32(^pid<<3|cpuclockSched), &ts); err != nil {
		return 0, fmt.Errorf("CPU clock of process %d: %w", pid, err)
	}
	return time.Duration(ts.Nano()), nil
}

// tickCPU is the user+system CPU a process has used so far, from /proc/PID/stat.
func tickCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return statCPU(pid, string(b))
}

// statCPU reads utime and stime of a /proc/PID/stat line.
func statCPU(pid int, s string) (time.Duration, error) {
	// The command name (field 2) may hold spaces and ')': count fields after the last ')'.
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: short line", pid)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64) // field 14, utime
	st, err2 := strconv.ParseInt(f[12], 10, 64) // field 15, stime
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: bad times", pid)
	}
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// selfCPU is the user+system CPU this process (the client) has used so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cost is the CPU one lifecycle took in the server and in the client.
type cost struct{ server, client time.Duration }

func (c cost) String() string {
	return fmt.Sprintf("server %4.0f µs + client %4.0f µs = %4.0f µs", us(c.server), us(c.client), us(c.server+c.client))
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// measured runs fn (n lifecycles) and returns what one lifecycle cost in CPU.
func measured(pid, n int, fn func() error) (cost, error) {
	s0, err := procCPU(pid)
	if err != nil {
		return cost{}, err
	}
	c0 := selfCPU()
	if err := fn(); err != nil {
		return cost{}, err
	}
	s1, err := procCPU(pid)
	if err != nil {
		return cost{}, err
	}
	c1 := selfCPU()
	return cost{server: (s1 - s0) / time.Duration(n), client: (c1 - c0) / time.Duration(n)}, nil
}
