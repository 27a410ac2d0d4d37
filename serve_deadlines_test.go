package main

import (
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The server has a deadline for every stage of a connection.
func TestServerHasEveryDeadline(t *testing.T) {
	srv := newHTTPServer(http.NotFoundHandler())
	for name, d := range map[string]time.Duration{
		"ReadHeaderTimeout": srv.ReadHeaderTimeout, "ReadTimeout": srv.ReadTimeout,
		"WriteTimeout": srv.WriteTimeout, "IdleTimeout": srv.IdleTimeout,
	} {
		if d <= 0 {
			t.Errorf("%s is not set", name)
		}
	}
	// The wasm as built (11.5 MB) fits in the write deadline at 20 KB/s.
	if srv.WriteTimeout < time.Duration(11_500_000/20_000)*time.Second {
		t.Errorf("WriteTimeout %s is too short for the wasm on a slow link", srv.WriteTimeout)
	}
}

// A client that asks for a file and never reads it is dropped once its
// writes stall, while one that reads gets the whole file.
func TestServerDropsAClientThatNeverReads(t *testing.T) {
	defer func(d time.Duration) { stallTimeout = d }(stallTimeout)
	stallTimeout = time.Second

	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "web"), 0o755)
	// Far more than the loopback socket buffers hold.
	big := make([]byte, 64<<20)
	if err := os.WriteFile(filepath.Join(dir, "web", "big.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	site, err := newSiteServer(dir, "/")
	if err != nil {
		t.Fatal(err)
	}
	srv := newHTTPServer(site)
	closed := make(chan struct{}, 16)
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed <- struct{}{}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()

	// A reading client gets all of it, in more time than one stall.
	start := time.Now()
	res, err := http.Get("http://" + ln.Addr().String() + "/web/big.bin")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, &slowReader{r: res.Body, pause: 400 * time.Millisecond, every: 16 << 20})
	res.Body.Close()
	if err != nil || n != int64(len(big)) {
		t.Fatalf("a reading client got %d of %d bytes: %v", n, len(big), err)
	}
	if time.Since(start) < stallTimeout {
		t.Fatalf("the download took %s, less than one stall: the test proves nothing", time.Since(start))
	}
	http.DefaultClient.CloseIdleConnections()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the reading client's connection did not close")
	}

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4096)
	if _, err := io.WriteString(conn, "GET /web/big.bin HTTP/1.1\r\nHost: plog\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("a client that never reads still holds its connection after 10 s")
	}
}

// slowReader pauses after each every bytes read, as a slow link does.
type slowReader struct {
	r           io.Reader
	pause       time.Duration
	every, seen int
}

func (s *slowReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.seen += n
	if s.seen >= s.every {
		s.seen = 0
		time.Sleep(s.pause)
	}
	return n, err
}

// Offline, the service worker answers the page at every address it is
// opened at, and has cached every static file, the embedding example among
// them (the e2e tests open these offline).
func TestServiceWorkerAnswersEveryAddressOfThePage(t *testing.T) {
	for _, prefix := range []string{"/", "/plog/"} {
		out, _ := generate(t, fakeWasm(t, "x"), prefix, "")
		worker := readFile(t, filepath.Join(out, "app-worker.js"))
		if strings.Contains(worker, goappWorkerMatch) || !strings.Contains(worker, `const plogPage = "`+prefix+`";`) {
			t.Errorf("%s: the worker still matches requests by their exact URL:\n%s", prefix, worker)
		}
		resources := regexp.MustCompile(`const resourcesToCache = (\[.*\]);`).FindStringSubmatch(worker)
		static := strings.TrimSuffix(prefix, "/") + "/web/static/"
		if resources == nil || !strings.Contains(resources[1], `"`+static+`embed.html"`) || !strings.Contains(resources[1], `"`+static+`embed-example.js"`) {
			t.Errorf("%s: the worker does not cache the embedding example: %v", prefix, resources)
		}
	}
}
