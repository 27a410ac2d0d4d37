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
	// LoadTabItem and SaveTabItem are LoadItem and SaveItem for what
	// belongs to this tab alone: it outlives a reload of the tab, and no
	// other tab sees it (sessionStorage).
	LoadTabItem(key string) (string, error)
	SaveTabItem(key, value string) error
	// HoldWorkspace takes a workspace's id for this page, for as long as
	// it is open or until LetGoWorkspace, and says whether it could:
	// false when another open tab of the site holds it. It waits for the
	// browser: call it from ctx.Async.
	HoldWorkspace(id string) bool
	// LetGoWorkspace gives up an id the page holds or asked to hold.
	LetGoWorkspace(id string)
	// NextTurn returns once the browser has run a task of its own (a
	// paint, input): the page draws a long list a part at a time, a part
	// a turn. It waits for the browser: call it from ctx.Async.
	NextTurn()
	// PostToParent posts a message to the window that embeds the page; it
	// does nothing when the page is not in a frame.
	PostToParent(msg map[string]any)
	// OpenTab opens url in a new top-level tab that has no handle on this
	// page. An error says the browser would not: a frame sandboxed without
	// allow-popups opens no window.
	OpenTab(url string) error
	// Download offers text to the learner as a file with the given name.
	Download(name, text string) error
	// DownloadPicture offers an SVG picture (package picture) as a file:
	// the SVG itself at scale 0, else a PNG scale times its size, which
	// the browser draws (web/static/picture-png.js).
	DownloadPicture(name, svg string, scale int) error
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
	tabItems map[string]string
	held     map[string]bool // the workspaces this page holds
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
	// HeldElsewhere lists the workspaces another open tab holds:
	// HoldWorkspace refuses them.
	HeldElsewhere map[string]bool
	// Picked is what ReadPickedFile returns.
	Picked    OpenedFile
	PickedErr error

	drop func(OpenedFile, error)
}

// NewMemoryBrowser returns an empty in-memory browser without a clipboard.
func NewMemoryBrowser() *MemoryBrowser {
	return &MemoryBrowser{items: map[string]string{}, tabItems: map[string]string{}, held: map[string]bool{}}
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

func (m *MemoryBrowser) LoadItem(key string) (string, error) { return m.load(m.items, key), nil }

func (m *MemoryBrowser) SaveItem(key, value string) error { return m.save(m.items, key, value) }

func (m *MemoryBrowser) LoadTabItem(key string) (string, error) { return m.load(m.tabItems, key), nil }

func (m *MemoryBrowser) SaveTabItem(key, value string) error { return m.save(m.tabItems, key, value) }

func (m *MemoryBrowser) load(items map[string]string, key string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return items[key]
}

func (m *MemoryBrowser) save(items map[string]string, key, value string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.SaveError != nil {
		return m.SaveError
	}
	items[key] = value
	return nil
}

func (m *MemoryBrowser) StorageProblem() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.Problem
}

func (m *MemoryBrowser) HoldWorkspace(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.HeldElsewhere[id] {
		return false
	}
	m.held[id] = true
	return true
}

// NextTurn returns at once: there is no browser to wait for.
func (m *MemoryBrowser) NextTurn() {}

func (m *MemoryBrowser) LetGoWorkspace(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.held, id)
}

// Holds says whether the page holds a workspace's id.
func (m *MemoryBrowser) Holds(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.held[id]
}

// NextTab is the browser of the same tab after a reload: the same
// storage, the same tab's items, and no workspace held (the page that
// held them is gone). The two share their items, not their lock: a test
// uses one at a time.
func (m *MemoryBrowser) NextTab() *MemoryBrowser {
	m.mu.Lock()
	defer m.mu.Unlock()
	next := NewMemoryBrowser()
	next.items, next.tabItems = m.items, m.tabItems
	return next
}

// NewTab is the browser of another tab of the site: the same storage,
// and no item of this tab's. As with NextTab, a test uses one at a time.
func (m *MemoryBrowser) NewTab() *MemoryBrowser {
	m.mu.Lock()
	defer m.mu.Unlock()
	next := NewMemoryBrowser()
	next.items = m.items
	return next
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

// DownloadPicture keeps the picture's SVG under the file's name, as a PNG's
// source: no canvas here.
func (m *MemoryBrowser) DownloadPicture(name, svg string, scale int) error {
	return m.Download(name, svg)
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
func (m *MemoryBrowser) Item(key string) string { return m.load(m.items, key) }

// TabItem returns what the tab's own storage holds under key.
func (m *MemoryBrowser) TabItem(key string) string { return m.load(m.tabItems, key) }

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
