package policy

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Env is what every verdict under these settings is given against: home
// and the settings' sandbox roots. The gate, `airlock assess`, `airlock
// validate` and MCP's assess all build theirs here, so that one input gets
// one verdict wherever it is rated.
func (s Settings) Env(home string) (*risk.Env, error) {
	paths, err := sanitize.NewConfig(home, s.Roots)
	if err != nil {
		return nil, fmt.Errorf("sandbox roots: %w", err)
	}
	return &risk.Env{Paths: paths}, nil
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
	env, err := s.Env(home)
	if err != nil {
		return nil, Settings{}, fmt.Errorf("%s: %w", path, err)
	}
	return env, s, nil
}
