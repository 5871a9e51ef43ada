module github.com/airlockhq/airlock

go 1.25

require (
	github.com/progrium/darwinkit v0.5.0
	golang.org/x/text v0.30.0
	mvdan.cc/sh/v3 v3.12.0
)
