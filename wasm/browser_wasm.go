//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	plog "plog/app"

	"github.com/hack-pad/safejs"
)

// jsBrowser is the page's Browser: every call into JavaScript goes through
// safejs, which turns a thrown exception into an error, so that nothing the
// browser does, refuses or lacks can panic the wasm.
type jsBrowser struct{}

func newBrowser() plog.Browser { return jsBrowser{} }

// promiseTimeout bounds the wait for a promise the browser may never settle
// (a permission prompt nobody answers).
const promiseTimeout = 10 * time.Second

// global reads a property of the global object; undefined and null are
// errors naming it.
func global(name string) (safejs.Value, error) {
	v, err := safejs.Global().Get(name)
	if err != nil {
		return v, describe(err)
	}
	if v.IsUndefined() || v.IsNull() {
		return v, fmt.Errorf("this browser has no %s here", name)
	}
	return v, nil
}

// describe turns a JavaScript exception into an error worth showing: its
// name and message, without a Go stack.
func describe(err error) error {
	var jsErr js.Error
	if !errors.As(err, &jsErr) {
		return err
	}
	v := safejs.Safe(jsErr.Value)
	name, _ := stringOf(v, "name")
	msg, _ := stringOf(v, "message")
	if name == "" && msg == "" {
		return errors.New(strings.TrimPrefix(jsErr.Error(), "JavaScript error: "))
	}
	return fmt.Errorf("%s: %s", name, msg)
}

// stringOf reads a string property; anything else is "".
func stringOf(v safejs.Value, prop string) (string, error) {
	p, err := v.Get(prop)
	if err != nil || p.Type() != safejs.TypeString {
		return "", err
	}
	return p.String()
}

// await waits for a promise to settle and returns its value, or why it was
// rejected. Call it only off the JavaScript event loop (a goroutine of its
// own): the promise settles while Go waits.
func await(promise safejs.Value) (safejs.Value, error) {
	type settled struct {
		v   safejs.Value
		err error
	}
	done := make(chan settled, 1)
	first := func(args []safejs.Value) safejs.Value {
		if len(args) == 0 {
			return safejs.Undefined()
		}
		return args[0]
	}
	onValue, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		done <- settled{v: first(args)}
		return nil
	})
	if err != nil {
		return safejs.Undefined(), err
	}
	defer onValue.Release()
	onError, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		reason := first(args)
		name, _ := stringOf(reason, "name")
		msg, _ := stringOf(reason, "message")
		done <- settled{err: fmt.Errorf("%s", strings.TrimPrefix(name+": "+msg, ": "))}
		return nil
	})
	if err != nil {
		return safejs.Undefined(), err
	}
	defer onError.Release()
	if _, err := promise.Call("then", onValue.Value(), onError.Value()); err != nil {
		return safejs.Undefined(), describe(err)
	}
	select {
	case s := <-done:
		return s.v, s.err
	case <-time.After(promiseTimeout):
		return safejs.Undefined(), fmt.Errorf("the browser did not answer within %s", promiseTimeout)
	}
}

func (jsBrowser) CopyText(text string) error {
	nav, err := global("navigator")
	if err != nil {
		return err
	}
	clip, err := nav.Get("clipboard")
	if err != nil || clip.IsUndefined() || clip.IsNull() {
		return errors.New("the browser gives this page no clipboard here (an insecure address or a frame)")
	}
	p, err := clip.Call("writeText", text)
	if err != nil {
		return describe(err)
	}
	_, err = await(p)
	return err
}

func (jsBrowser) SelectText(id string) {
	el, err := elementByID(id)
	if err != nil {
		return
	}
	el.Call("focus")
	el.Call("select")
}

func elementByID(id string) (safejs.Value, error) {
	doc, err := global("document")
	if err != nil {
		return doc, err
	}
	el, err := doc.Call("getElementById", id)
	if err != nil {
		return el, describe(err)
	}
	if el.IsNull() || el.IsUndefined() {
		return el, fmt.Errorf("the page has no element %q", id)
	}
	return el, nil
}

func localStorage() (safejs.Value, error) {
	return global("localStorage")
}

func (jsBrowser) LoadItem(key string) (string, error) { return getItem("localStorage", key) }

func (jsBrowser) SaveItem(key, value string) error { return setItem("localStorage", key, value) }

// The tab's own storage.
func (jsBrowser) LoadTabItem(key string) (string, error) { return getItem("sessionStorage", key) }

func (jsBrowser) SaveTabItem(key, value string) error {
	return setItem("sessionStorage", key, value)
}

// getItem reads a key of a Storage, "" when it holds nothing.
func getItem(storage, key string) (string, error) {
	s, err := global(storage)
	if err != nil {
		return "", err
	}
	v, err := s.Call("getItem", key)
	if err != nil {
		return "", describe(err)
	}
	if v.Type() != safejs.TypeString {
		return "", nil
	}
	return v.String()
}

// setItem writes a key of a Storage, and says when the storage is full.
func setItem(storage, key, value string) error {
	s, err := global(storage)
	if err != nil {
		return err
	}
	if _, err := s.Call("setItem", key, value); err != nil {
		err = describe(err)
		if strings.Contains(strings.ToLower(err.Error()), "quota") {
			return fmt.Errorf("the browser's storage for this site is full (%v)", err)
		}
		return err
	}
	return nil
}

// HoldWorkspace asks web/static/workspaces.js, which holds a Web Lock for
// each workspace the page holds. Without it (a page served without the
// script) every id is the page's, as before tabs had workspaces of their
// own; when the browser does not answer, none is.
func (jsBrowser) HoldWorkspace(id string) bool {
	workspaces, err := global("plogWorkspaces")
	if err != nil {
		return true
	}
	p, err := workspaces.Call("hold", id)
	if err != nil {
		return false
	}
	v, err := await(p)
	if err != nil {
		return false
	}
	held, err := v.Bool()
	return err == nil && held
}

// NextTurn waits on a setTimeout of the browser's: a time.Sleep would not
// do, as the Go scheduler wakes a sleeper in the same task when another
// goroutine ran past its timer (core/scenario's yieldToBrowser says more).
func (jsBrowser) NextTurn() {
	turned := make(chan struct{})
	wake, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		close(turned)
		return nil
	})
	if err != nil {
		return
	}
	defer wake.Release()
	if _, err := safejs.Global().Call("setTimeout", wake, 0); err != nil {
		return
	}
	<-turned
}

func (jsBrowser) LetGoWorkspace(id string) {
	if workspaces, err := global("plogWorkspaces"); err == nil {
		workspaces.Call("letGo", id)
	}
}

// StorageProblem reads the mark web/static/storage-guard.js leaves when it
// had to put an in-memory storage in place of the browser's.
func (jsBrowser) StorageProblem() string {
	if _, err := localStorage(); err != nil {
		return err.Error()
	}
	standIns, err := safejs.Global().Get("plogStorageStandIns")
	if err != nil || standIns.IsUndefined() || standIns.IsNull() {
		return ""
	}
	return "the browser gives this page no storage here (a sandboxed frame, or storage switched off)"
}

// OpenTab opens the tab with window.open and then cuts the new page's
// handle on this one (opener), as rel=noopener would: with the noopener
// feature window.open always returns null, and the page could not tell an
// opened tab from a refused one.
func (jsBrowser) OpenTab(url string) error {
	self, err := global("window")
	if err != nil {
		return err
	}
	tab, err := self.Call("open", url, "_blank")
	if err != nil {
		return describe(err)
	}
	if tab.IsNull() || tab.IsUndefined() {
		return errors.New("the page around this one does not let it open tabs (a frame sandboxed without allow-popups)")
	}
	tab.Set("opener", safejs.Null())
	return nil
}

func (jsBrowser) PostToParent(msg map[string]any) {
	self, err := global("window")
	if err != nil {
		return
	}
	parent, err := self.Get("parent")
	if err != nil || parent.IsUndefined() || parent.IsNull() || parent.Equal(self) {
		return
	}
	v, err := safejs.ValueOf(msg)
	if err != nil {
		return
	}
	// Any origin may embed the page, and the messages say nothing private:
	// the scenario is in the frame's own URL, which the parent wrote.
	parent.Call("postMessage", v, "*")
}

// downloadLinger is how long a download's object URL stays valid: the
// browser reads it as the download starts.
const downloadLinger = time.Minute

func (b jsBrowser) Download(name, text string) error {
	return b.download(name, "text/plain;charset=utf-8", text)
}

// DownloadPicture offers the SVG as it is, or hands it to
// web/static/picture-png.js, which draws it on a canvas and offers the PNG.
// The PNG is made after this returns: its failure is logged, as the
// download's own would be.
func (b jsBrowser) DownloadPicture(name, svg string, scale int) error {
	if scale <= 0 {
		return b.download(name, "image/svg+xml;charset=utf-8", svg)
	}
	png, err := global("plogDownloadPNG")
	if err != nil {
		return err
	}
	if _, err := png.Invoke(name, svg, scale); err != nil {
		return describe(err)
	}
	return nil
}

// download offers text of a type as a file.
func (jsBrowser) download(name, mimeType, text string) error {
	blobType, err := global("Blob")
	if err != nil {
		return err
	}
	blob, err := blobType.New([]any{text}, map[string]any{"type": mimeType})
	if err != nil {
		return describe(err)
	}
	urls, err := global("URL")
	if err != nil {
		return err
	}
	href, err := urls.Call("createObjectURL", blob)
	if err != nil {
		return describe(err)
	}
	doc, err := global("document")
	if err != nil {
		return err
	}
	a, err := doc.Call("createElement", "a")
	if err != nil {
		return describe(err)
	}
	body, err := doc.Get("body")
	if err != nil {
		return describe(err)
	}
	for _, step := range []func() error{
		func() error { return a.Set("href", href) },
		func() error { return a.Set("download", name) },
		func() error { _, err := body.Call("appendChild", a); return err },
		func() error { _, err := a.Call("click"); return err },
		func() error { _, err := a.Call("remove"); return err },
	} {
		if err := step(); err != nil {
			return describe(err)
		}
	}
	time.AfterFunc(downloadLinger, func() { urls.Call("revokeObjectURL", href) })
	return nil
}

func (jsBrowser) ReadPickedFile(inputID string) (plog.OpenedFile, error) {
	input, err := elementByID(inputID)
	if err != nil {
		return plog.OpenedFile{}, err
	}
	files, err := input.Get("files")
	if err != nil {
		return plog.OpenedFile{}, describe(err)
	}
	f, err := readFile(files)
	// Picking the same file again must fire a change.
	input.Set("value", "")
	return f, err
}

// readFile reads the first file of a FileList as UTF-8 text.
func readFile(files safejs.Value) (plog.OpenedFile, error) {
	n, err := files.Length()
	if err != nil || n == 0 {
		return plog.OpenedFile{}, errors.New("no file was picked")
	}
	file, err := files.Index(0)
	if err != nil {
		return plog.OpenedFile{}, describe(err)
	}
	name, _ := stringOf(file, "name")
	sizeValue, err := file.Get("size")
	if err != nil {
		return plog.OpenedFile{}, describe(err)
	}
	size, err := sizeValue.Float()
	if err != nil {
		return plog.OpenedFile{}, describe(err)
	}
	if size > plog.MaxFileBytes {
		return plog.OpenedFile{Name: name}, fmt.Errorf("%s is %.0f bytes; a scenario file holds at most %d", name, size, plog.MaxFileBytes)
	}
	promise, err := file.Call("text")
	if err != nil {
		return plog.OpenedFile{Name: name}, describe(err)
	}
	text, err := await(promise)
	if err != nil {
		return plog.OpenedFile{Name: name}, fmt.Errorf("reading %s: %v", name, err)
	}
	s, err := text.String()
	return plog.OpenedFile{Name: name, Text: s}, err
}

// OnFileDrop listens for files dropped anywhere on the page. A drag that
// carries no file (text into a box) is left to the browser.
func (jsBrowser) OnFileDrop(fn func(plog.OpenedFile, error)) func() {
	self, err := global("window")
	if err != nil {
		return func() {}
	}
	carriesFiles := func(event safejs.Value) (safejs.Value, bool) {
		dt, err := event.Get("dataTransfer")
		if err != nil || dt.IsNull() || dt.IsUndefined() {
			return dt, false
		}
		types, err := dt.Get("types")
		if err != nil {
			return dt, false
		}
		has, err := types.Call("includes", "Files")
		if err != nil {
			return dt, false
		}
		ok, _ := has.Bool()
		return dt, ok
	}
	onDragOver, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) == 1 {
			if dt, ok := carriesFiles(args[0]); ok {
				args[0].Call("preventDefault")
				dt.Set("dropEffect", "copy")
			}
		}
		return nil
	})
	if err != nil {
		return func() {}
	}
	onDrop, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) != 1 {
			return nil
		}
		dt, ok := carriesFiles(args[0])
		if !ok {
			return nil
		}
		args[0].Call("preventDefault")
		files, err := dt.Get("files")
		if err != nil {
			go fn(plog.OpenedFile{}, describe(err))
			return nil
		}
		// Reading waits for a promise: not on the event loop.
		go func() { fn(readFile(files)) }()
		return nil
	})
	if err != nil {
		onDragOver.Release()
		return func() {}
	}
	self.Call("addEventListener", "dragover", onDragOver.Value())
	self.Call("addEventListener", "drop", onDrop.Value())
	return func() {
		self.Call("removeEventListener", "dragover", onDragOver.Value())
		self.Call("removeEventListener", "drop", onDrop.Value())
		onDragOver.Release()
		onDrop.Release()
	}
}
