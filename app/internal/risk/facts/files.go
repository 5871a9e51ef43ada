package facts

// RunnableExts are the file name extensions, lower case, of files that run
// code when opened (applications, scripts, installers, extensions,
// profiles, links that launch something).
var RunnableExts = []string{".app", ".command", ".tool", ".sh", ".terminal", ".pkg", ".mpkg", ".workflow",
	".scpt", ".scptd", ".applescript", ".action", ".prefpane", ".saver", ".webloc", ".inetloc", ".fileloc", ".jar", ".py", ".dmg",
	".mobileconfig", ".configprofile", ".shortcut", ".kext", ".plugin", ".bundle", ".qlgenerator", ".mdimporter", ".osax", ".zsh", ".bash", ".pl", ".rb",
	".alfredworkflow", ".kmmacros", ".kmlibrary", ".jnlp", ".popclipext", ".safariextz", ".xpi", ".crx", ".vsix", ".appex"}
