package policy

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Env is what every verdict under these settings is given against: home,
// the settings' sandbox roots and allowed apps, and Airlock itself (its own files and its
// gate's process, which no action may touch: risk.WithSelf). The gate,
// `airlock assess`, `airlock validate` and MCP's assess all build theirs
// here, so that one input gets one verdict wherever it is rated. gatePID is
// the gate's own pid when the gate calls, else 0 (the pid is then read from
// the data folder's lock file, if a gate runs).
func (s Settings) Env(home string, gatePID int) (*risk.Env, error) {
	paths, err := sanitize.NewConfig(home, s.Roots)
	if err != nil {
		return nil, fmt.Errorf("sandbox roots: %w", err)
	}
	if paths, err = paths.WithApps(nonNil(s.AllowedApps)); err != nil {
		return nil, err
	}
	env, err := risk.WithSelf(paths, gatePID)
	if err != nil {
		return nil, fmt.Errorf("finding Airlock's own files: %w", err)
	}
	return env, nil
}

// LoadEnv reads the settings of the gate whose data directory is dataDir
// (see LoadSettings: a missing file gives the defaults, a bad one is an
// error) and returns them with their Env for the current user's home.
func LoadEnv(dataDir string) (*risk.Env, Settings, error) {
	path := filepath.Join(dataDir, SettingsFile)
	s, err := LoadSettings(path)
	if err != nil {
		return nil, Settings{}, err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, Settings{}, fmt.Errorf("finding the home folder: %w", err)
	}
	env, err := s.Env(home, 0)
	if err != nil {
		return nil, Settings{}, fmt.Errorf("%s: %w", path, err)
	}
	return env, s, nil
}
