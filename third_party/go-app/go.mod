module github.com/maxence-charriere/go-app/v9

go 1.18

require github.com/google/uuid v1.3.0
