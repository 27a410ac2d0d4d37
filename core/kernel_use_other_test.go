//go:build !linux

package core

import "testing"

// kernelUse is measured on Linux only (see kernel_use_linux_test.go).
func kernelUse() (faults, sysNs int64, ok bool) { return 0, 0, false }

func reportKernelUse(b *testing.B, faultsBefore, sysBefore int64) {}
