module github.com/airlockhq/airlock

go 1.25.0

require (
	fyne.io/systray v1.12.0
	github.com/creack/pty v1.1.24
	github.com/godbus/dbus/v5 v5.1.0
	github.com/jezek/xgb v1.1.1
	github.com/keybase/dbus v0.0.0-20220506165403-5aa21ea2c23a
	github.com/keybase/go-keychain v0.0.1
	github.com/landlock-lsm/go-landlock v0.10.1
	github.com/mattn/go-sqlite3 v1.14.32
	github.com/modelcontextprotocol/go-sdk v1.7.0
	github.com/progrium/darwinkit v0.5.0
	golang.design/x/hotkey v0.5.0
	golang.org/x/sys v0.41.0
	golang.org/x/text v0.30.0
	howett.net/plist v1.0.1
	kernel.org/pub/linux/libs/security/libcap/psx v1.2.77
	mvdan.cc/sh/v3 v3.12.0
)

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/crypto v0.32.0 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
