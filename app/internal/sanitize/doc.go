// Package sanitize holds Airlock's hard rules: the checks every argument a
// model proposes (a path, a URL, an app name, an argv element, free text)
// passes before anything rates it, shows it for approval or runs it. What it
// refuses is blocked: it is never offered for approval. Every refusal is a
// *Refusal that names the rule and the argument, as in
//
//	blocked: ~/.ssh/id_rsa is inside a credential store (~/.ssh)
//
// It owns:
//   - control and invisible characters: stripped from free text (Text,
//     Content), refused in paths, URLs, app names and argv (Strict);
//   - path traversal in every spelling (percent-encoded, double-encoded,
//     Unicode lookalikes), checked on the raw text before anything cleans it;
//   - ~ and $HOME expansion, and the resolution of symbolic links along the
//     longest existing prefix of a path (Config.Path);
//   - the zones a path can lie in: Airlock's own files (Config.WithOwn),
//     system folders, credential and private-data stores, persistence
//     locations, temporary folders and the sandbox roots (Config.Classify,
//     Config.Encloses for what a folder holds, Config.Pattern for a shell
//     glob or a path computed at run time; the tables are in zones.go);
//   - what is hidden in the home (Config.Hidden, HiddenFolders,
//     HiddenAllowed): every hidden entry of the home and of ~/Library but
//     an allow-list of toolchains and harmless configuration, which the OS
//     sandbox hides from actions and the analyzers treat as secret
//     (hidden.go);
//   - the allowed apps (the allowedApps setting): which applications an
//     action may open, quit or bring to the front, and how two app names
//     compare (Config.WithApps, Config.App, Config.AppAllowed);
//   - the size limits on strings, lists, reads and writes;
//   - how an argument is shown in a message (Display): on one line, with
//     control and invisible characters escaped.
//
// Paths are compared the way macOS APFS compares names: case-insensitively
// and normalisation-insensitively. A path that is refused must be refused in
// every spelling; the deny lists are matched with a wider folding (NFKC, full
// case folding, default-ignorable code points removed) than the allow lists
// (sandbox roots and temporary folders: NFC and simple case folding), so a
// doubtful spelling always falls on the refusing side.
//
// The package never creates, reads, changes or deletes a file. Its only I/O is
// Lstat and Readlink on the components of a path, to see where symbolic links
// lead; Classify does no I/O at all. The answer holds for the moment of the
// check: whoever acts on a path afterwards should still refuse to follow a
// link that appeared since (O_NOFOLLOW and friends).
package sanitize
