package main

import (
	"context"
	"os"
	"time"

	"github.com/chromedp/chromedp"
)

func main() {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath("/usr/bin/chromium"), chromedp.NoSandbox, chromedp.WindowSize(1280, 800))
	a, c1 := chromedp.NewExecAllocator(context.Background(), opts...)
	defer c1()
	ctx, c2 := chromedp.NewContext(a)
	defer c2()
	ctx, c3 := context.WithTimeout(ctx, 60*time.Second)
	defer c3()
	js := os.Args[3]
	if err := chromedp.Do(ctx, chromedp.Navigate(os.Args[1]), chromedp.WaitVisible(`main[data-ready="true"]`)); err != nil {
		panic(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js+";true")); err != nil {
		panic(err)
	}
	time.Sleep(500 * time.Millisecond)
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(os.Args[4]))
	if err != nil {
		panic(err)
	}
	os.WriteFile(os.Args[2], buf, 0o644)
}
