package core

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"testing"
)

// EventKinds lists every EventKind constant the package declares, and
// nothing else: a new kind not in the list would be refused by the
// readers that name kinds.
func TestEventKindsAreEveryKind(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, path := range paths {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			if id, ok := spec.Type.(*ast.Ident); ok && id.Name == "EventKind" {
				for _, name := range spec.Names {
					declared = append(declared, name.Name)
				}
			}
			return true
		})
	}
	if len(declared) != len(EventKinds()) {
		t.Errorf("the package declares %d event kinds, EventKinds lists %d", len(declared), len(EventKinds()))
	}
	seen := map[EventKind]bool{}
	for _, k := range EventKinds() {
		if seen[k] {
			t.Errorf("%s is listed twice", k)
		}
		seen[k] = true
	}
	slices.Sort(declared)
	if len(declared) < 50 {
		t.Errorf("only %d event kinds declared: %v", len(declared), declared)
	}
}
