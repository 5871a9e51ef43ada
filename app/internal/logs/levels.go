package logs

import "log/slog"

// The platform levels, decided here in plain Go so that they are tested on
// every OS; the backends only pass them on.

// Priority is the syslog priority of level, as the journal's PRIORITY
// field takes it: debug 7, info 6, warning 4, error 3, fault (security) 2
// (crit).
func Priority(level slog.Level) int {
	switch {
	case level >= LevelFault:
		return 2
	case level >= slog.LevelError:
		return 3
	case level >= slog.LevelWarn:
		return 4
	case level >= slog.LevelInfo:
		return 6
	}
	return 7
}

// os_log_type_t values (<os/log.h>).
const (
	osLogDefault = 0x00
	osLogInfo    = 0x01
	osLogDebug   = 0x02
	osLogError   = 0x10
	osLogFault   = 0x11
)

// OSLogType is the os_log_type_t of level: debug, info, default (for
// warnings, which os.log has no level for), error, fault.
func OSLogType(level slog.Level) uint8 {
	switch {
	case level >= LevelFault:
		return osLogFault
	case level >= slog.LevelError:
		return osLogError
	case level >= slog.LevelWarn:
		return osLogDefault
	case level >= slog.LevelInfo:
		return osLogInfo
	}
	return osLogDebug
}

// LevelName is how the text backend writes level.
func LevelName(level slog.Level) string {
	switch {
	case level >= LevelFault:
		return "FAULT"
	case level >= slog.LevelError:
		return "ERROR"
	case level >= slog.LevelWarn:
		return "WARN"
	case level >= slog.LevelInfo:
		return "INFO"
	}
	return "DEBUG"
}

// JournalFields are the fields of an entry besides MESSAGE and PRIORITY,
// which the journal library sets itself.
func JournalFields(e Entry) map[string]string {
	return map[string]string{"SYSLOG_IDENTIFIER": Identifier, CategoryField: e.Category}
}
