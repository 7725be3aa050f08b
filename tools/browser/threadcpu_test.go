//go:build !js

package browser

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// threadCPU is the CPU time, in milliseconds, of every thread of the
// process root and its descendants (Chromium's browser, renderers and GPU
// process), by thread: "pid/tid" to the thread's name and time, from
// Linux's /proc (nil elsewhere). Its difference over a stretch of a
// benchmark says what the page's workers used and what everything else
// did, whatever else the machine ran meanwhile.
func threadCPU(root int) map[string]threadTime {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	parent := map[int]int{}
	for _, f := range stats {
		if name, fields := procStat(f); name != "" && len(fields) > 1 {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			parent[pid], _ = strconv.Atoi(fields[1])
		}
	}
	out := map[string]threadTime{}
	for pid := range parent {
		p := pid
		for p != root && p > 1 {
			p = parent[p]
		}
		if p != root {
			continue
		}
		tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/stat")
		for _, f := range tasks {
			name, fields := procStat(f)
			if len(fields) < 13 {
				continue
			}
			user, _ := strconv.ParseFloat(fields[11], 64)
			sys, _ := strconv.ParseFloat(fields[12], 64)
			out[strconv.Itoa(pid)+"/"+filepath.Base(filepath.Dir(f))] = threadTime{name, (user + sys) * 1000 / clockTicks}
		}
	}
	return out
}

// clockTicks is Linux's USER_HZ, the unit of /proc's times: 100 on every
// architecture Go runs Linux on.
const clockTicks = 100

// threadTime is one thread's name and CPU time, ms.
type threadTime struct {
	name string
	ms   float64
}

// procStat reads a /proc stat file: the name in parentheses and the
// fields after it (state, ppid, ...).
func procStat(path string) (string, []string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", nil
	}
	s := string(b)
	l, r := strings.Index(s, "("), strings.LastIndex(s, ")")
	if l < 0 || r < l || r+2 > len(s) {
		return "", nil
	}
	return s[l+1 : r], strings.Fields(s[r+2:])
}

// workerCPU splits the CPU time used between before and after into the
// page's workers' threads (Chromium names them DedicatedWorker) and all
// the rest, ms.
func workerCPU(before, after map[string]threadTime) (workers, rest float64) {
	for k, t := range after {
		d := t.ms - before[k].ms
		if strings.HasPrefix(t.name, "DedicatedWorker") {
			workers += d
		} else {
			rest += d
		}
	}
	return workers, rest
}
