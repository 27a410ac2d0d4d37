module github.com/maxence-charriere/go-app/v9

go 1.18
