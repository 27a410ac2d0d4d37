package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/andybalholm/brotli"

	"plog/internal/gowasm"
)

// plog's page is measured beside two peers in the same run, served by the
// same server (plog's, each from a directory of its own): a go-app v9 hello
// built from plog's copy of go-app and slimmed as plog's wasm is
// (peers/hello), and a small page of plain JavaScript (peers/static). On a
// busy machine every figure of a run moves together, so the ratio of
// plog's to a peer's still says something when the figure alone does not.

// peer is a page measured beside plog's.
type peer struct {
	name   string // names its samples: PagePeerColdLoopbackHello
	what   string // for the table
	worker bool   // it installs a service worker, which its repeat visit waits for
	url    string
}

// peerProfiles are the networks the peers are measured on: loopback, and
// issue 41's 10 Mbit/s.
var peerProfiles = []networkProfile{networkProfiles[0], networkProfiles[1]}

// peerDir is where the peers' sources are, from the repository's root.
const peerDir = "cmd/pagebench/peers"

// startPeers builds the peers into dir and serves each with the site's
// server; stop stops them.
func startPeers(dir, site string) (peers []peer, stop func(), err error) {
	var stops []func()
	stop = func() {
		for _, s := range stops {
			s()
		}
	}
	hello, err := buildHello(dir)
	if err != nil {
		return nil, stop, fmt.Errorf("building the go-app hello: %w", err)
	}
	static := filepath.Join(dir, "peer-static")
	if err := os.CopyFS(static, os.DirFS(filepath.Join(peerDir, "static"))); err != nil {
		return nil, stop, err
	}
	for _, p := range []struct {
		peer
		dist string
	}{
		{peer{name: "Plog", what: "plog"}, ""},
		{peer{name: "Hello", what: "go-app hello", worker: true}, hello},
		{peer{name: "Static", what: "static JS page"}, static},
	} {
		if p.dist != "" {
			if err := precompress(p.dist); err != nil {
				return nil, stop, err
			}
			url, s, err := serve(site, p.dist)
			if err != nil {
				return nil, stop, err
			}
			stops = append(stops, s)
			p.url = url
		}
		peers = append(peers, p.peer)
	}
	return peers, stop, nil
}

// buildHello builds the go-app hello's wasm, slims it as plog's site
// slims its own (internal/gowasm), and has the hello write its site
// around it, with the toolchain's wasm_exec.js as plog's site has.
func buildHello(dir string) (string, error) {
	src := "./" + filepath.Join(peerDir, "hello")
	wasm, generator, out := filepath.Join(dir, "hello.wasm"), filepath.Join(dir, "hello"), filepath.Join(dir, "peer-hello")
	for _, s := range []struct {
		env  []string
		args []string
	}{
		{[]string{"GOOS=js", "GOARCH=wasm"}, []string{"go", "build", "-ldflags", "-s -w", "-o", wasm, src}},
		{nil, []string{"go", "build", "-o", generator, src}},
		{nil, []string{generator, out}},
	} {
		log.Print(strings.Join(s.args, " "))
		cmd := exec.Command(s.args[0], s.args[1:]...)
		cmd.Env = append(os.Environ(), s.env...)
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("%s: %v\n%s", strings.Join(s.args, " "), err, b)
		}
	}
	built, err := os.ReadFile(wasm)
	if err != nil {
		return "", err
	}
	slimmed, warning, err := gowasm.SlimOrBuilt(built)
	if err != nil {
		return "", err
	}
	if warning != nil {
		log.Print(warning)
	}
	exec, err := gowasm.ToolchainFile("wasm_exec.js")
	if err != nil {
		return "", err
	}
	glue, err := os.ReadFile(exec)
	if err != nil {
		return "", err
	}
	for name, b := range map[string][]byte{"web/app.wasm": slimmed, "wasm_exec.js": glue, "web/icon.svg": []byte(helloIcon)} {
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			return "", err
		}
	}
	return out, nil
}

// helloIcon is the hello's icon, which its page and manifest name
// (peers/hello/generate.go): go-app's default is none, an empty address.
const helloIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7"/></svg>`

// precompress writes a .br (at 11, as make dist and pagebench's site) and
// a .gz beside each file of a peer's site that the server sends
// compressed, where smaller.
func precompress(dir string) error {
	return filepath.WalkDir(dir, func(name string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(name) {
		case ".html", ".js", ".css", ".wasm", ".svg", ".webmanifest", ".json":
		default:
			return nil
		}
		raw, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		var br, gz bytes.Buffer
		bw := brotli.NewWriterLevel(&br, 11)
		gw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		for _, w := range []interface {
			Write([]byte) (int, error)
			Close() error
		}{bw, gw} {
			if _, err := w.Write(raw); err != nil {
				return err
			}
			if err := w.Close(); err != nil {
				return err
			}
		}
		for suffix, b := range map[string][]byte{".br": br.Bytes(), ".gz": gz.Bytes()} {
			if len(b) < len(raw) {
				if err := os.WriteFile(name+suffix, b, 0o644); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// measurePeers measures a cold and a repeat visit of plog's page (at
// plogURL) and of each peer on each of peerProfiles, once.
func measurePeers(chromium, dir, plogURL string, peers []peer) error {
	for _, p := range peers {
		url := p.url
		if url == "" {
			url = plogURL
		}
		for _, n := range peerProfiles {
			cold, repeat, err := measureOnNetwork(chromium, dir, url, n, p.worker || p.name == "Plog")
			if err != nil {
				return fmt.Errorf("%s on %s: %w", p.what, n.what, err)
			}
			for visit, f := range map[string]loadFigures{"Cold": cold, "Repeat": repeat} {
				sample("PagePeer"+visit+n.name+p.name, msToNs(f.Ready), "ns/op", msToNs(f.FCP), "fcp-ns", int64(f.Bytes), "transferred-bytes")
			}
		}
	}
	return nil
}
