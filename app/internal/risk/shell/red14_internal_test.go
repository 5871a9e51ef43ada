package shell

import "testing"

// TestRed14MediaToolsLoadCodeByEnvironment: the media tools take code
// from where an environment variable says, beside the files they are
// given: exiftool runs $EXIFTOOL_HOME/.ExifTool_config (Perl) at every
// start, ImageMagick runs the delegates (shell commands) of
// $MAGICK_CONFIGURE_PATH/delegates.xml and loads its modules from
// MAGICK_HOME and MAGICK_CODER_*_PATH, and Ghostscript, which ImageMagick
// runs for a PDF, starts with the PostScript of GS_LIB and the options of
// GS_OPTIONS (-dNOSAFER). Each was safe or Caution, "reads metadata" or
// "converts images", while PSQLRC=… psql is rated as loading code (cases
// in testdata/red14-media-env.jsonl, with look-alikes).
func TestRed14MediaToolsLoadCodeByEnvironment(t *testing.T) {
	checkOptionCases(t, loadOptionCases(t, "red14-media-env.jsonl"))
}
