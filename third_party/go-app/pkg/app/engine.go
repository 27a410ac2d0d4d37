package app

import (
	"context"
	"net/url"
	"sort"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/errors"
)

type engine struct {
	// The number of frame per seconds.
	FrameRate int

	// The page.
	Page Page

	// Reports whether the engine runs on server-side.
	IsServerSide bool

	// The storage use as local storage.
	LocalStorage BrowserStorage

	// The storage used as session storage.
	SessionStorage BrowserStorage

	// The function used to resolve static resource paths.
	StaticResourceResolver func(string) string

	// The body of the page.
	Body HTMLBody

	// The action handlers that are not associated with a component and are
	// executed asynchronously.
	ActionHandlers map[string]ActionHandler

	initOnce             sync.Once
	startOnce            sync.Once
	closeOnce            sync.Once
	wait                 sync.WaitGroup
	componentUpdateMutex sync.RWMutex

	dispatches           chan Dispatch
	overflowMutex        sync.Mutex
	overflow             []Dispatch // plog: dispatches waiting for room (PLOG.md)
	componentUpdates     map[Composer]bool
	componentUpdateQueue []componentUpdate
	deferables           []Dispatch
	actions              actionManager
	states               *store
	isFirstMount         bool

	// plog: while the first mount runs, when it last let the browser have
	// a task (mountTurn, PLOG.md); zero otherwise.
	firstMountTurn time.Time
}

// firstMountSlice is how long the first mount works before it lets the
// browser have a task (plog, PLOG.md): well under the 200 ms a step may
// keep the page's main thread, with room for the style and layout the
// browser does after it.
const firstMountSlice = 40 * time.Millisecond

// mountTurn lets the browser have a task when the first mount has worked
// for firstMountSlice since the last (plog, PLOG.md). The tree being
// mounted is not in the document until it is whole, so the page shows
// what it showed (the written page) meanwhile; dispatches (an event's
// handler) wait for the mount, as they would behind one long task.
func (e *engine) mountTurn() {
	if e.firstMountTurn.IsZero() || time.Since(e.firstMountTurn) < firstMountSlice {
		return
	}
	if turned := browserTurn(); turned != nil {
		<-turned
	}
	e.firstMountTurn = time.Now()
}

func (e *engine) Context() Context {
	return makeContext(e.Body)
}

// Dispatch queues d for the engine's goroutine, and never waits (plog,
// PLOG.md): the release sent on a channel of 4,096, and a send to it full
// waited for the engine's goroutine, which may be the one sending (a
// handler that sets a state observed by many components dispatches once
// for each), or may wait in turn for a browser task that the waiting event
// handler holds up: in wasm, both are a deadlock, and the program exits.
// What the channel has no room for waits in overflow, in order, and moves
// into the channel as the engine's goroutine takes from it (refill).
func (e *engine) Dispatch(d Dispatch) {
	if d.Source == nil {
		d.Source = e.Body
	}
	e.overflowMutex.Lock()
	defer e.overflowMutex.Unlock()
	if len(e.overflow) == 0 {
		select {
		case e.dispatches <- d:
			return
		default:
		}
	}
	e.overflow = append(e.overflow, d)
}

// refill moves waiting dispatches into the channel while it has room: the
// engine's goroutine calls it each time it takes one, so the channel is
// empty only when nothing waits.
func (e *engine) refill() {
	e.overflowMutex.Lock()
	defer e.overflowMutex.Unlock()
	n := 0
	for n < len(e.overflow) {
		select {
		case e.dispatches <- e.overflow[n]:
			e.overflow[n] = Dispatch{}
			n++
			continue
		default:
		}
		break
	}
	e.overflow = e.overflow[n:]
	if len(e.overflow) == 0 {
		e.overflow = nil // let the array go
	}
}

// take passes on the dispatch taken from the channel, and refills it.
func (e *engine) take(d Dispatch) Dispatch {
	e.refill()
	return d
}

func (e *engine) Emit(src UI, fn func()) {
	e.Dispatch(Dispatch{
		Mode:   Next,
		Source: src,
		Function: func(ctx Context) {
			if fn != nil {
				fn()
			}

			e.componentUpdateMutex.RLock()
			compo := getComponent(src)
			if canUpdate, ok := e.componentUpdates[compo]; ok && !canUpdate {
				e.componentUpdateMutex.RUnlock()
				return
			}
			e.componentUpdateMutex.RUnlock()

			for c := compo; c != nil; c = getComponent(c.getParent()) {
				e.addComponentUpdate(c)
			}
		},
	})
}

func (e *engine) Handle(actionName string, src UI, h ActionHandler) {
	e.actions.handle(actionName, false, src, h)
}

func (e *engine) Post(a Action) {
	e.Async(func() {
		e.actions.post(a)
	})
}

func (e *engine) SetState(state string, v any, opts ...StateOption) {
	e.states.Set(state, v, opts...)
}

func (e *engine) GetState(state string, recv any) {
	e.states.Get(state, recv)
}

func (e *engine) DelState(state string) {
	e.states.Del(state)
}

func (e *engine) ObserveState(state string, elem UI) Observer {
	return e.states.Observe(state, elem)
}

func (e *engine) Async(fn func()) {
	e.wait.Add(1)
	go func() {
		fn()
		e.wait.Done()
	}()
}

func (e *engine) Wait() {
	e.wait.Wait()
}

func (e *engine) Consume() {
	for {
		e.Wait()

		select {
		case d := <-e.dispatches:
			e.handleDispatch(e.take(d))

		default:
			e.handleFrame()
			return
		}
	}
}

func (e *engine) ConsumeNext() {
	e.Wait()
	e.handleDispatch(e.take(<-e.dispatches))
	e.handleFrame()
}

func (e *engine) Close() {
	e.closeOnce.Do(func() {
		e.Consume()
		e.Wait()

		dismount(e.Body)
		e.Body = nil
		e.states.Close()
	})
}

func (e *engine) Mount(v UI) {
	e.Dispatch(Dispatch{
		Mode:   Update,
		Source: e.Body,
		Function: func(ctx Context) {
			if e.isFirstMount {
				// plog: the first mount starts in a task of its own, after
				// the one that started the program, and lets the browser
				// have a task as it goes (mountTurn, PLOG.md).
				if turned := browserTurn(); turned != nil {
					<-turned
				}
				e.firstMountTurn = time.Now()
				err := e.Body.(*htmlBody).replaceChildAt(0, v)
				e.firstMountTurn = time.Time{}
				if err != nil {
					panic(errors.New("mounting first ui element failed").Wrap(err))
				}

				e.isFirstMount = false
				return
			}

			if firstChild := e.Body.getChildren()[0]; canUpdate(firstChild, v) {
				if err := update(firstChild, v); err != nil {
					panic(errors.New("mounting ui element failed").Wrap(err))
				}
				return
			}

			if err := e.Body.(*htmlBody).replaceChildAt(0, v); err != nil {
				panic(errors.New("mounting ui element failed").Wrap(err))
			}
		},
	})
}

func (e *engine) Nav(u *url.URL) {
	if p, ok := e.Page.(*requestPage); ok {
		p.ReplaceURL(u)
	}

	e.Dispatch(Dispatch{
		Mode:   Update,
		Source: e.Body,
		Function: func(ctx Context) {
			ctx.Src().onComponentEvent(nav{})
		},
	})
}

func (e *engine) AppUpdate() {
	e.Dispatch(Dispatch{
		Mode:   Update,
		Source: e.Body,
		Function: func(ctx Context) {
			ctx.Src().onComponentEvent(appUpdate{})
		},
	})
}

func (e *engine) AppInstallChange() {
	e.Dispatch(Dispatch{
		Mode:   Update,
		Source: e.Body,
		Function: func(ctx Context) {
			ctx.Src().onComponentEvent(appInstallChange{})
		},
	})
}

func (e *engine) AppResize() {
	e.Dispatch(Dispatch{
		Mode:   Update,
		Source: e.Body,
		Function: func(ctx Context) {
			ctx.Src().onComponentEvent(resize{})
		},
	})
}

func (e *engine) init() {
	e.initOnce.Do(func() {
		if e.FrameRate <= 0 {
			e.FrameRate = 60
		}

		if e.Page == nil {
			u, _ := url.Parse("https://test.go-app.dev")
			e.Page = &requestPage{url: u}
		}

		if e.LocalStorage == nil {
			e.LocalStorage = newMemoryStorage()
		}

		if e.SessionStorage == nil {
			e.SessionStorage = newMemoryStorage()
		}

		if e.StaticResourceResolver == nil {
			e.StaticResourceResolver = func(path string) string {
				return path
			}
		}

		if e.Body == nil {
			body := Body().privateBody(Div())
			if err := mount(e, body); err != nil {
				panic(errors.New("mounting engine default body failed").Wrap(err))
			}
			e.Body = body
		}

		e.dispatches = make(chan Dispatch, 4096)
		e.componentUpdates = make(map[Composer]bool)
		e.componentUpdateQueue = make([]componentUpdate, 0, 32)
		e.deferables = make([]Dispatch, 32)
		e.states = newStore(e)
		e.isFirstMount = true

		for actionName, handler := range e.ActionHandlers {
			e.actions.handle(actionName, true, e.Body, handler)
		}
	})
}

func (e *engine) getCurrentPage() Page {
	return e.Page
}

func (e *engine) getLocalStorage() BrowserStorage {
	return e.LocalStorage
}

func (e *engine) getSessionStorage() BrowserStorage {
	return e.SessionStorage
}

func (e *engine) isServerSide() bool {
	return e.IsServerSide
}

func (e *engine) resolveStaticResource(path string) string {
	return e.StaticResourceResolver(path)
}

func (e *engine) addComponentUpdate(c Composer) {
	if c == nil || !c.Mounted() {
		return
	}

	e.componentUpdates[c] = true
}

func (e *engine) removeComponentUpdate(c Composer) {
	delete(e.componentUpdates, c)
}

func (e *engine) preventComponentUpdate(c Composer) {
	e.componentUpdateMutex.Lock()
	defer e.componentUpdateMutex.Unlock()

	e.componentUpdates[c] = false
}

func (e *engine) addDeferable(d Dispatch) {
	e.deferables = append(e.deferables, d)
}

func (e *engine) start(ctx context.Context) {
	e.startOnce.Do(func() {
		frameDuration := time.Second / time.Duration(e.FrameRate)
		currentFrameDuration := frameDuration
		frames := time.NewTicker(frameDuration)

		e.states.Cleanup()
		cleanups := time.NewTicker(time.Minute)
		defer cleanups.Stop()

		// turned is closed at the browser's next task after a frame that
		// rendered; nil when no frame waits for it. Dispatches (an event's
		// handler among them, which must run inside the event to prevent
		// its default) are handled meanwhile; frames are not.
		var turned <-chan struct{}

		for {
			select {
			case <-ctx.Done():
				return

			case d := <-e.dispatches:
				if currentFrameDuration != frameDuration {
					currentFrameDuration = frameDuration
					frames.Reset(currentFrameDuration)
				}
				e.handleDispatch(e.take(d))

			case <-turned:
				turned = nil

			case <-frames.C:
				if turned != nil {
					// plog: no frame until the browser has had a task of
					// its own since the last that rendered (PLOG.md).
					break
				}
				if e.hasFrameWork() {
					turned = browserTurn()
				}
				e.handleFrame()
				if len(e.dispatches) == 0 {
					if currentFrameDuration < time.Hour {
						currentFrameDuration *= 2
					}
					frames.Reset(currentFrameDuration)
				}

			case <-cleanups.C:
				e.actions.closeUnusedHandlers()
				e.states.Cleanup()
			}
		}
	})
}

func (e *engine) handleDispatch(d Dispatch) {
	switch d.Mode {
	case Update:
		d.do()
		e.addComponentUpdate(getComponent(d.Source))

	case Defer:
		e.deferables = append(e.deferables, d)

	case Next:
		d.do()
	}
}

// hasFrameWork says whether the next frame updates a component or runs a
// deferred function.
func (e *engine) hasFrameWork() bool {
	e.componentUpdateMutex.Lock()
	defer e.componentUpdateMutex.Unlock()
	return len(e.componentUpdates) > 0 || len(e.deferables) > 0
}

func (e *engine) handleFrame() {
	e.handleComponentUpdates()
	e.handleDeferables()
}

func (e *engine) handleComponentUpdates() {
	e.componentUpdateMutex.Lock()
	defer e.componentUpdateMutex.Unlock()

	for c, canUpdate := range e.componentUpdates {
		if c.Mounted() && canUpdate {
			e.componentUpdateQueue = append(e.componentUpdateQueue, componentUpdate{
				component: c,
				priority:  getComponentPriority(c),
			})
		}
	}

	sort.Slice(e.componentUpdateQueue, func(i, j int) bool {
		return e.componentUpdateQueue[i].priority < e.componentUpdateQueue[j].priority
	})

	for i, u := range e.componentUpdateQueue {
		if _, ok := e.componentUpdates[u.component]; !ok || !u.component.Mounted() {
			e.removeComponentUpdate(u.component)
			e.componentUpdateQueue[i] = componentUpdate{}
			continue
		}

		if err := u.component.updateRoot(); err != nil {
			panic(err)
		}
		e.removeComponentUpdate(u.component)
		e.componentUpdateQueue[i] = componentUpdate{}
	}

	e.componentUpdateQueue = e.componentUpdateQueue[:0]
}

func (e *engine) handleDeferables() {
	for i := range e.deferables {
		e.deferables[i].do()
		e.deferables[i] = Dispatch{}
	}
	e.deferables = e.deferables[:0]
}

func getComponent(n UI) Composer {
	for node := n; node != nil; node = node.getParent() {
		if c, isCompo := node.(Composer); isCompo {
			return c
		}
	}
	return nil
}

func getComponentPriority(c Composer) int {
	depth := 1
	for parent := c.getParent(); parent != nil; parent = parent.getParent() {
		depth++
	}
	return depth
}

type componentUpdate struct {
	component Composer
	priority  int
}
