// Package headless holds how plog starts Chromium for its browser tests and
// page benchmarks, so both run the browser the same way.
package headless

import "github.com/chromedp/chromedp"

// Options are the allocator options for a headless Chromium at execPath with
// a fresh profile in profileDir. Background networking, component updates
// and sync are off: they reach for other hosts, which a closed network
// refuses many times a second, and a page measured or tested must make no
// request beyond its own origin.
func Options(execPath, profileDir string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(execPath),
		chromedp.UserDataDir(profileDir),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1200, 800),
	)
}
