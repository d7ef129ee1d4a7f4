module github.com/kgc-project/kgc

go 1.26.8

require (
	github.com/dlclark/regexp2/v2 v2.13.0
	golang.org/x/text v0.44.0
)
