package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Code asks whether a scenario follows a named change; it does not compare
// rules versions, which would hide which change it means. Only a version's
// range is checked by number.
func TestNoCodeComparesRulesVersions(t *testing.T) {
	root := "."
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "third_party" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			if !ok || b.Op != token.LSS && b.Op != token.GEQ && b.Op != token.GTR && b.Op != token.LEQ {
				return true
			}
			for _, side := range []ast.Expr{b.X, b.Y} {
				name := ""
				switch e := side.(type) {
				case *ast.Ident:
					name = e.Name
				case *ast.SelectorExpr:
					name = e.Sel.Name
				}
				// RulesV1 and LatestRules bound the range of versions.
				if strings.HasPrefix(name, "RulesV") && name != "RulesV1" {
					found = append(found, fset.Position(b.Pos()).String())
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range found {
		t.Errorf("%s compares a rules version: ask Follows or follows of a named RuleChange (core/rules.go)", at)
	}
}
