// Package sandbox is Airlock's second layer of containment: the OS sandbox
// every command, shell, AppleScript and JXA action runs in, so that what runs
// unasked can do no more than its verdict says even when the verdict is
// wrong.
//
// It owns:
//   - the profile of one action (Derive), a pure function of the settings
//     (home, sandbox roots, Airlock's own files, the environment) and of what
//     the gate decided (Grant): read where the action needs, write only in
//     the sandbox roots and a temporary folder of its own, never see
//     Airlock's own files or the credential stores, nor what is hidden in
//     the home (its dot files and ~/Library) but an allow-list of
//     toolchains and harmless configuration, the roots, and what an
//     approved action names (hidden.go), no controlling terminal,
//     no display server or session bus unless it drives the UI and the
//     person approved that, and no network unless its verdict says it uses
//     the network: then the web's ports when it runs unasked, the whole
//     network when the person approved it (Network says how each platform
//     holds that, and what it leaves open);
//   - the Seatbelt text of a profile for macOS (Seatbelt), platform-neutral
//     so that it is tested everywhere, with the rules an action the person
//     did not approve meets there (seatbelt_unasked.go);
//   - Doctor, the harmless checks that prove on the machine it runs on
//     what this package claims, through the real launcher;
//   - Box, which starts a bridge.Command confined through the launcher
//     (package sandbox/launcher: airlock-launch beside airlock, or where
//     there is none this program run again with LaunchFlag): on Linux it
//     enters new user, mount, PID, IPC and (unless the action is granted a
//     network) network namespaces, mounts a copy-on-write view (overlayfs)
//     on each sandbox root for an action the person did not approve, hides
//     what the profile hides, applies Landlock and seccomp filters and then
//     starts the action; on macOS it runs /usr/bin/sandbox-exec with the
//     Seatbelt text the gate made, spawned with its TCC responsibility
//     disclaimed;
//   - the layers of those views (ConfineReviewed, ReadLayer, RemoveLayers):
//     what an action that ran unasked changed, which the gate reviews and
//     applies after it ends; the roots themselves stay as they were.
//
// Where the platform cannot confine (no Landlock, no user namespaces or no
// overlayfs in them, no sandbox-exec), Box.Available says why, and Confine
// refuses every action the person did not approve: those kinds never run
// unasked. The gate asks for
// them there, and an approved one runs with only what can still be done
// (a session of its own, no display or bus variables).
//
// It never decides what is dangerous (that is package risk's) and never
// confines Airlock's own trusted bridge calls (popups, clipboard,
// notifications): only actions.
package sandbox
