//go:build darwin

package bridge

import (
	"runtime"
	"unsafe"

	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"
)

// The main goroutine stays on the main thread, where AppleScriptHelper runs
// NSAppleScript (fyne.io/systray locks it the same way for the menu bar).
func init() { runtime.LockOSThread() }

// Apple event codes for calling a script's run handler with arguments.
const (
	kCoreEventClass       = 0x61657674 // 'aevt'
	kAEOpenApplication    = 0x6f617070 // 'oapp': the run handler
	keyDirectObject       = 0x2d2d2d2d // '----'
	kAutoGenerateReturnID = -1
	kAnyTransactionID     = 0
	errOSAGeneralError    = -2700 // "an error of type -2700 has occurred"
)

// interpret compiles src with NSAppleScript and, unless compile, runs it:
// with argv, by sending the script the run handler's Apple event ('aevt'
// 'oapp') with argv as a list of text in its direct parameter, which is
// what `on run argv` receives; without, by executing it plainly.
func interpret(src string, argv []string, compile bool) (result string, err error) {
	objc.WithAutoreleasePool(func() {
		script := foundation.NewAppleScriptWithSource(src)
		if script.IsNil() {
			err = &ScriptError{Number: errOSAGeneralError, Message: "NSAppleScript could not take the source", Compile: true}
			return
		}
		var info foundation.Dictionary
		if !script.CompileAndReturnError(unsafe.Pointer(&info)) {
			se := scriptError(info)
			se.Compile = true
			err = se
			return
		}
		if compile {
			return
		}
		var desc foundation.AppleEventDescriptor
		if len(argv) == 0 {
			desc = script.ExecuteAndReturnError(unsafe.Pointer(&info))
		} else {
			desc = script.ExecuteAppleEventError(runEvent(argv), unsafe.Pointer(&info))
		}
		if desc.IsNil() {
			err = scriptError(info)
			return
		}
		result = desc.StringValue()
	})
	return result, err
}

// runEvent builds the Apple event that calls a script's run handler with
// argv: every value is a text descriptor, never source.
func runEvent(argv []string) foundation.AppleEventDescriptor {
	list := foundation.AppleEventDescriptor_ListDescriptor()
	for i, a := range argv {
		list.InsertDescriptorAtIndex(foundation.AppleEventDescriptor_DescriptorWithString(a), i+1)
	}
	target := foundation.AppleEventDescriptor_CurrentProcessDescriptor()
	event := objc.Call[foundation.AppleEventDescriptor](foundation.AppleEventDescriptorClass,
		objc.Sel("appleEventWithEventClass:eventID:targetDescriptor:returnID:transactionID:"),
		uint32(kCoreEventClass), uint32(kAEOpenApplication), target, int16(kAutoGenerateReturnID), int32(kAnyTransactionID))
	objc.Call[objc.Void](event, objc.Sel("setParamDescriptor:forKeyword:"), list, uint32(keyDirectObject))
	return event
}

// scriptError reads NSAppleScript's error dictionary.
func scriptError(info foundation.Dictionary) *ScriptError {
	se := &ScriptError{Number: errOSAGeneralError, Message: "the script failed without saying why"}
	if info.IsNil() {
		return se
	}
	if v := info.ValueForKey("NSAppleScriptErrorNumber"); !v.IsNil() {
		se.Number = foundation.NumberFrom(v.Ptr()).IntValue()
	}
	text := func(key string) string {
		if v := info.ValueForKey(key); !v.IsNil() {
			return objc.ToGoString(v.Ptr())
		}
		return ""
	}
	if m := text("NSAppleScriptErrorMessage"); m != "" {
		se.Message = m
	}
	se.Brief = text("NSAppleScriptErrorBriefMessage")
	se.App = text("NSAppleScriptErrorAppName")
	if v := info.ValueForKey("NSAppleScriptErrorRange"); !v.IsNil() {
		r := foundation.ValueFrom(v.Ptr()).RangeValue()
		se.Start, se.Length = int(r.Location), int(r.Length)
	}
	return se
}
