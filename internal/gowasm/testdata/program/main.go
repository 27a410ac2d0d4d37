// Command program exercises what the runtime needs its tables for: stack
// growth (stack copying reads the frame sizes and stack maps), the garbage
// collector scanning goroutines' stacks, defer and recover; it prints a
// checksum of its work, then panics inside nested calls, so that a test can
// compare the traceback before and after Slim.
package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
)

type node struct {
	next  *node
	value int
}

// deep recurses with a pointer live in every frame, growing the stack many
// times over; a wrong frame size or stack map corrupts the list.
func deep(n int, list *node) int {
	if n == 0 {
		runtime.GC()
		sum := 0
		for ; list != nil; list = list.next {
			sum += list.value
		}
		return sum
	}
	return deep(n-1, &node{next: list, value: n})
}

func recovered() (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	var m map[string]int
	m["x"] = 1
	return "no panic"
}

//go:noinline
func boom(depth int) {
	if depth == 0 {
		panic("boom")
	}
	boom(depth - 1)
}

func main() {
	var wg sync.WaitGroup
	sums := make([]int, 8)
	for i := range sums {
		wg.Add(1)
		go func() {
			defer wg.Done()
			words := map[string]int{}
			for j := range 2000 {
				words[strings.Repeat("w", j%37)] += j
			}
			sums[i] = deep(20000+i, nil) + len(words)
		}()
	}
	wg.Wait()
	sort.Ints(sums)
	fmt.Println("sums", sums)
	fmt.Println("recovered", recovered())
	if len(os.Args) > 1 && os.Args[1] == "panic" {
		boom(3)
	}
}
