package rate

import (
	"io"
	"os"
	"path"
	"strings"
)

// python -m puts the working folder first on the module path (unless -I
// or -P): a json.py there runs instead of the standard json, and so does
// any module the standard one imports later (a traceback.py under
// py_compile). So a standard module run with -m runs only what the
// standard library holds while the working folder holds no module Python
// would import (a sixth red team's find,
// TestRed4PythonModuleFromTheWorkingFolder in package gate).

// maxPythonScan bounds the entries PythonModulesIn reads, the folder's and
// its subfolders' together: past it, it cannot tell.
const maxPythonScan = 20000

// PythonModulesIn says whether the folder dir holds what Python imports by
// a module's name: a source (NAME.py), compiled (NAME.pyc) or extension
// module (NAME.so, NAME.cpython-312-darwin.so, NAME.pyd), or a package (a
// folder holding an __init__ of those kinds; a folder without one is a
// namespace portion, which a module later on the path wins over). It
// answers PresentFile for one, Absent for none, and PresenceUnknown when
// it cannot tell: no paths configured, a path it does not judge (as
// Presence), a folder it cannot read, or more entries than it reads.
func (e *Env) PythonModulesIn(dir string) Presence {
	abs, ok := e.judged(dir)
	if !ok {
		return PresenceUnknown
	}
	budget := maxPythonScan
	var dirs []string // the folders, each a package if it holds an __init__ module
	found, ok := scanNames(abs, &budget, func(name string, isDir bool) bool {
		if isDir {
			dirs = append(dirs, name)
			return false
		}
		return pythonModuleFile(name, false)
	})
	switch {
	case !ok:
		return PresenceUnknown
	case found:
		return PresentFile
	}
	for _, d := range dirs {
		found, ok := scanNames(path.Join(abs, d), &budget, func(name string, isDir bool) bool {
			return !isDir && pythonModuleFile(name, true)
		})
		switch {
		case !ok:
			return PresenceUnknown
		case found:
			return PresentFile
		}
	}
	return Absent
}

// pythonModuleFile reports whether name is a module file Python imports:
// with init, only a package's __init__ one.
func pythonModuleFile(name string, init bool) bool {
	stem, ext, ok := strings.Cut(name, ".")
	if !ok || stem == "" || init && stem != "__init__" {
		return false
	}
	switch {
	case ext == "py", ext == "pyc", ext == "pyw", ext == "pyd", ext == "so":
		return true
	case strings.HasSuffix(ext, ".so"), strings.HasSuffix(ext, ".pyd"):
		return true // NAME.cpython-312-darwin.so, NAME.abi3.so, NAME.cp312-win_amd64.pyd
	}
	return false
}

// scanNames reads the folder dir's entries in bounded steps, calling match
// for each (links to folders count as folders), and reports whether one
// matched; ok is false when the folder could not be read whole or budget
// ran out.
func scanNames(dir string, budget *int, match func(name string, isDir bool) bool) (found, ok bool) {
	f, err := os.Open(dir)
	if err != nil {
		return false, false
	}
	defer f.Close()
	for {
		ents, err := f.ReadDir(256)
		for _, de := range ents {
			*budget--
			if *budget < 0 {
				return false, false
			}
			isDir := de.IsDir()
			if de.Type()&os.ModeSymlink != 0 {
				if fi, err := os.Stat(path.Join(dir, de.Name())); err == nil && fi.IsDir() {
					isDir = true
				}
			}
			if match(de.Name(), isDir) {
				return true, true
			}
		}
		if err == io.EOF {
			return false, true
		}
		if err != nil {
			return false, false
		}
	}
}
