package app

import (
	"errors"
	"sync"

	"plog/core/scenario"
)

// Browser is what the page needs from the browser beyond go-app: the
// clipboard, storage, the window that embeds the page, downloads, and files
// the learner picks or drops. The wasm's main installs the real one (package
// wasm, through safejs) with SetBrowser before the page starts; natively, in
// the site generator and in tests, the page uses an in-memory stand-in.
//
// The methods that wait for the browser (CopyText, ReadPickedFile) block:
// call them from ctx.Async, never from a handler on the UI goroutine. None
// of them may panic, whatever the browser does.
type Browser interface {
	// CopyText puts text on the clipboard. An error says the page may not:
	// insecure contexts and many iframes have no clipboard.
	CopyText(text string) error
	// SelectText selects the text of the field with the given id, so the
	// learner can copy it by hand.
	SelectText(id string)
	// LoadItem returns what is stored under key, "" when nothing is.
	LoadItem(key string) (string, error)
	// SaveItem stores value under key. An error says why it could not:
	// storage unavailable, or full.
	SaveItem(key, value string) error
	// StorageProblem says why stored items will not outlive the page (a
	// sandboxed iframe, storage switched off), or "" when they will.
	StorageProblem() string
	// PostToParent posts a message to the window that embeds the page; it
	// does nothing when the page is not in a frame.
	PostToParent(msg map[string]any)
	// OpenTab opens url in a new top-level tab that has no handle on this
	// page. An error says the browser would not: a frame sandboxed without
	// allow-popups opens no window.
	OpenTab(url string) error
	// Download offers text to the learner as a file with the given name.
	Download(name, text string) error
	// ReadPickedFile reads the file picked in the file input with the given
	// id; it refuses files larger than MaxFileBytes.
	ReadPickedFile(inputID string) (OpenedFile, error)
	// OnFileDrop calls fn with each file dropped on the page, until the
	// returned function is called. fn runs on no particular goroutine.
	OnFileDrop(fn func(OpenedFile, error)) (stop func())
}

// OpenedFile is a text file the learner picked or dropped.
type OpenedFile struct {
	Name string
	Text string
}

// MaxFileBytes bounds the files the page reads: a scenario file holds at
// most what a script may (scenario.MaxScriptBytes). A larger file is refused
// whole, never read in part.
const MaxFileBytes = scenario.MaxScriptBytes

var (
	browserMu sync.Mutex
	browser   Browser = NewMemoryBrowser()
)

// SetBrowser installs the browser bridges the page uses. Package wasm calls
// it before go-app starts; tests call it with a fake.
func SetBrowser(b Browser) {
	browserMu.Lock()
	defer browserMu.Unlock()
	browser = b
}

// currentBrowser returns the bridges in use.
func currentBrowser() Browser {
	browserMu.Lock()
	defer browserMu.Unlock()
	return browser
}

// MemoryBrowser is the Browser of a page with no browser around it: storage
// in memory, no clipboard, no parent window, no files. Tests use it to see
// what the page stored and posted.
type MemoryBrowser struct {
	mu       sync.Mutex
	items    map[string]string
	posted   []map[string]any
	copied   []string
	selected []string
	saved    []OpenedFile // downloads

	// SaveError, when set, is what SaveItem returns: a full storage.
	SaveError error
	// Problem is what StorageProblem returns.
	Problem string
	// Clipboard says whether CopyText succeeds.
	Clipboard bool
	// Popups says whether OpenTab succeeds; opened lists what it opened.
	Popups bool
	opened []string
	// Picked is what ReadPickedFile returns.
	Picked    OpenedFile
	PickedErr error

	drop func(OpenedFile, error)
}

// NewMemoryBrowser returns an empty in-memory browser without a clipboard.
func NewMemoryBrowser() *MemoryBrowser {
	return &MemoryBrowser{items: map[string]string{}}
}

var errNoClipboard = errors.New("this page has no clipboard here")

func (m *MemoryBrowser) CopyText(text string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.Clipboard {
		return errNoClipboard
	}
	m.copied = append(m.copied, text)
	return nil
}

func (m *MemoryBrowser) SelectText(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.selected = append(m.selected, id)
}

func (m *MemoryBrowser) LoadItem(key string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.items[key], nil
}

func (m *MemoryBrowser) SaveItem(key, value string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.SaveError != nil {
		return m.SaveError
	}
	m.items[key] = value
	return nil
}

func (m *MemoryBrowser) StorageProblem() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.Problem
}

func (m *MemoryBrowser) PostToParent(msg map[string]any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.posted = append(m.posted, msg)
}

var errNoPopups = errors.New("this page may not open tabs here")

func (m *MemoryBrowser) OpenTab(url string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.Popups {
		return errNoPopups
	}
	m.opened = append(m.opened, url)
	return nil
}

// Opened returns the URLs OpenTab opened so far.
func (m *MemoryBrowser) Opened() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.opened...)
}

func (m *MemoryBrowser) Download(name, text string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.saved = append(m.saved, OpenedFile{Name: name, Text: text})
	return nil
}

func (m *MemoryBrowser) ReadPickedFile(inputID string) (OpenedFile, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.Picked, m.PickedErr
}

func (m *MemoryBrowser) OnFileDrop(fn func(OpenedFile, error)) func() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.drop = fn
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.drop = nil
	}
}

// Drop drops a file on the page, as a learner would.
func (m *MemoryBrowser) Drop(f OpenedFile, err error) {
	m.mu.Lock()
	fn := m.drop
	m.mu.Unlock()
	if fn != nil {
		fn(f, err)
	}
}

// Item returns what is stored under key.
func (m *MemoryBrowser) Item(key string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.items[key]
}

// Posted returns the messages posted to the parent window so far.
func (m *MemoryBrowser) Posted() []map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]map[string]any(nil), m.posted...)
}

// Copied returns what was put on the clipboard so far.
func (m *MemoryBrowser) Copied() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.copied...)
}

// Selected returns the ids of the fields selected so far.
func (m *MemoryBrowser) Selected() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.selected...)
}

// Downloads returns the files offered for download so far.
func (m *MemoryBrowser) Downloads() []OpenedFile {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]OpenedFile(nil), m.saved...)
}
