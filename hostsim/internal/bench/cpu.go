package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTicks is the kernel's USER_HZ (the unit of /proc/PID/stat times); 100 on
// every Linux this harness runs on.
const clockTicks = 100

// procCPU is the user+system CPU a process has used so far, from /proc/PID/stat.
func procCPU(pid int) (time.Duration, error) {
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
