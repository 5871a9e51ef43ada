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

// interpret compiles src with NSAppleScript and, unless compile, runs it by
// sending the script the run handler's Apple event ('aevt' 'oapp') with argv
// as a list of text in its direct parameter, which is what `on run argv`
// receives: {} when argv is empty, as osascript gives it (executing the
// script plainly would leave argv unbound). The result is read whatever its
// kind (scriptValueOf): text, numbers, lists, records.
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
		desc := script.ExecuteAppleEventError(runEvent(argv), unsafe.Pointer(&info))
		if desc.IsNil() {
			err = scriptError(info)
			return
		}
		result = formatScriptValue(scriptValueOf(desc, 0))
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

// Descriptor types and keywords of lists and records (AEDataModel.h,
// ASRegistry.h).
const (
	typeAEList            = 0x6c697374 // 'list'
	typeAERecord          = 0x7265636f // 'reco'
	keyASUserRecordFields = 0x75737266 // 'usrf': a record's user-defined fields, as a list of label, value, …
)

// Bounds on reading a result: deeper or longer values are cut (the result
// is cut at maxHelperResult bytes anyway).
const (
	maxResultDepth = 32
	maxResultItems = 100_000
)

// scriptValueOf reads a result descriptor: a list item by item, a record
// field by field (user-defined labels by name, properties by their
// four-character code), anything else as the text it coerces to.
func scriptValueOf(desc foundation.AppleEventDescriptor, depth int) scriptValue {
	if desc.IsNil() || depth > maxResultDepth {
		return scriptValue{}
	}
	switch objc.Call[uint32](desc, objc.Sel("descriptorType")) {
	case typeAEList:
		v := scriptValue{IsList: true}
		for i := 1; i <= min(desc.NumberOfItems(), maxResultItems); i++ {
			v.List = append(v.List, scriptValueOf(desc.DescriptorAtIndex(i), depth+1))
		}
		return v
	case typeAERecord:
		v := scriptValue{IsRecord: true}
		for i := 1; i <= min(desc.NumberOfItems(), maxResultItems); i++ {
			key := objc.Call[uint32](desc, objc.Sel("keywordForDescriptorAtIndex:"), i)
			item := desc.DescriptorAtIndex(i)
			if key != keyASUserRecordFields {
				v.Fields = append(v.Fields, scriptField{Key: fourCC(key), Value: scriptValueOf(item, depth+1)})
				continue
			}
			for j := 1; j+1 <= min(item.NumberOfItems(), maxResultItems); j += 2 {
				label := item.DescriptorAtIndex(j).StringValue()
				v.Fields = append(v.Fields, scriptField{Key: label, Value: scriptValueOf(item.DescriptorAtIndex(j+1), depth+1)})
			}
		}
		return v
	}
	return scriptValue{Text: desc.StringValue()}
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
