//go:build linux

package core

import (
	"syscall"
	"testing"
)

// kernelUse is how many page faults the process has taken and how long the
// kernel has worked for it, in nanoseconds: most of it supplying fresh
// memory, page by page, as a growing log first writes it.
func kernelUse() (faults, sysNs int64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, false
	}
	return ru.Minflt + ru.Majflt, ru.Stime.Nano(), true
}

// reportKernelUse reports, per record of the b.N the benchmark wrote, the
// page faults and the kernel's time since before (from kernelUse).
func reportKernelUse(b *testing.B, faultsBefore, sysBefore int64) {
	faults, sys, ok := kernelUse()
	if !ok {
		return
	}
	b.ReportMetric(float64(faults-faultsBefore)*1000/float64(b.N), "faults/1k-records")
	b.ReportMetric(float64(sys-sysBefore)/float64(b.N), "kernel-ns/record")
}
