package shell

import (
	"path"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Data wrangling and media tools an assistant runs all day (a tenth red
// team's blind set: ffmpeg -i to a new file, ffprobe, pandoc -o, csvkit):
// they read their inputs and print, or write the output file they are
// given, which is rated as a converter's (makes: new, or replacing one that
// exists). Options not listed here stay unmodelled (Dangerous): ffmpeg's
// protocols and filters that read other files, pandoc's filters, engines,
// templates and includes.

// csvReaders are csvkit's programs that only read CSV and print it: every
// option chooses what is printed. csvclean (writes files beside its
// input), csvsql (writes to databases), csvpy (starts Python) and in2csv
// (--write-sheets writes files) are not among them.
var csvReaders = []string{"csvlook", "csvstat", "csvcut", "csvgrep", "csvsort", "csvjson", "csvformat", "csvjoin", "csvstack"}

// init adds csvReaders to the table, refusing a name it already holds (as
// the table's map literal refuses a duplicate key).
func init() {
	for _, n := range csvReaders {
		if _, ok := commands[n]; ok {
			panic("shell: csvReaders: " + n + " has a row already")
		}
		commands[n] = row{opts: freeWords}
	}
}

// ffmpegValued are the ffmpeg and ffprobe options that take a value and
// only choose what is decoded, encoded or shown (ffmpeg(1), ffprobe(1)).
var ffmpegValued = map[string]bool{
	"-f": true, "-c": true, "-codec": true, "-vcodec": true, "-acodec": true, "-scodec": true,
	"-b": true, "-r": true, "-s": true, "-t": true, "-ss": true, "-sseof": true, "-to": true, "-fs": true,
	"-crf": true, "-preset": true, "-tune": true, "-profile": true, "-level": true, "-pix_fmt": true,
	"-ar": true, "-ac": true, "-aq": true, "-q": true, "-qscale": true, "-map": true, "-map_metadata": true,
	"-map_chapters": true, "-movflags": true, "-vf": true, "-af": true, "-filter": true, "-aspect": true,
	"-frames": true, "-vframes": true, "-aframes": true, "-g": true, "-loglevel": true, "-v": true,
	"-threads": true, "-metadata": true, "-disposition": true, "-shortest_buf_duration": true,
	"-select_streams": true, "-show_entries": true, "-of": true, "-print_format": true, "-sexagesimal_format": true,
	"-read_intervals": true, "-analyzeduration": true, "-probesize": true, "-maxrate": true, "-bufsize": true,
	"-tag": true, "-bsf": true, "-x264-params": true, "-x265-params": true, "-vsync": true, "-fps_mode": true,
}

// ffmpegFlags are the options without a value that only choose what is
// done or shown; -y lets ffmpeg replace an output file, which makes rates
// by the disk whatever the flag says.
var ffmpegFlags = map[string]bool{
	"-y": true, "-n": true, "-an": true, "-vn": true, "-sn": true, "-dn": true, "-hide_banner": true,
	"-nostdin": true, "-nostats": true, "-stats": true, "-shortest": true, "-copyts": true, "-re": true,
	"-show_format": true, "-show_streams": true, "-show_chapters": true, "-show_programs": true,
	"-show_error": true, "-count_frames": true, "-count_packets": true, "-pretty": true, "-unit": true,
	"-prefix": true, "-byte_binary_prefix": true, "-version": true, "-formats": true, "-codecs": true,
	"-encoders": true, "-decoders": true, "-filters": true, "-pix_fmts": true, "-h": true, "-help": true,
}

// ffmpegOption reports whether s is an option ffmpegValued or ffmpegFlags
// holds, with a stream specifier (-c:v, -b:a, -q:v, -filter:v, -metadata:s:a:0)
// taken off, and whether it takes a value.
func ffmpegOption(s string) (known, valued bool) {
	base, _, _ := strings.Cut(s, ":")
	switch {
	case ffmpegValued[s] || ffmpegValued[base]:
		return true, true
	case ffmpegFlags[s]:
		return true, false
	}
	return false, false
}

// mediaURL reports a name ffmpeg takes for a protocol rather than a file
// (http://, rtmp://, tcp:, pipe:1 …): what it reads or sends there is not
// modelled.
func mediaURL(s string) bool {
	i := strings.IndexByte(s, ':')
	return i > 0 && !strings.ContainsRune(s[:i], '/')
}

// ffmpegCommand rates ffmpeg: it reads each -i and writes each operand (an
// output file), and ffprobe, which writes nothing (probe set).
func ffmpegCommand(c *call) {
	probe := c.name == "ffprobe"
	if !probe {
		c.add(effect.Of(effect.Create), "ffmpeg", "ffmpeg: converts media")
	}
	format := "" // the -f given for the next input or output
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		if w.hole && strings.HasPrefix(w.s, "-") || !w.hole && strings.HasPrefix(w.s, "-") && w.s != "-" {
			known, valued := ffmpegOption(w.s)
			if !known && !(w.s == "-i" && i+1 < len(c.args)) {
				c.unmodelled(w.s)
				return
			}
			if w.s == "-i" {
				i++
				in := c.args[i]
				switch {
				case !in.hole && mediaURL(in.s) && !strings.HasPrefix(in.s, "/"):
					c.unmodelled("-i " + in.s)
					return
				case format == "lavfi":
					// The input is a filter graph, not a file.
					if !filterGraphKnown(in) {
						c.unmodelled("-f lavfi -i " + in.s)
						return
					}
				case ffmpegListFormats[format] || format == "" && !in.hole && playlistName(in.s):
					c.unmodelled("-f " + format + " -i " + in.s + " (reads the files the list names)")
					return
				default:
					c.a.read(in, c.span)
				}
				format = ""
				continue
			}
			if valued {
				i++
				if i >= len(c.args) {
					continue
				}
				v := c.args[i]
				switch base, _, _ := strings.Cut(w.s, ":"); {
				case w.s == "-f":
					format = strings.ToLower(v.s)
					if v.hole {
						format = "?"
					}
				case (base == "-vf" || base == "-af" || base == "-filter") && !filterGraphKnown(v):
					c.unmodelled(w.s + " " + v.s)
					return
				case (base == "-x264-params" || base == "-x265-params") && !encoderParamsKnown(v):
					c.unmodelled(w.s + " " + v.s + " (the encoder reads or writes a file it names)")
					return
				}
			}
			continue
		}
		switch {
		case w.s == "-":
		case !w.hole && mediaURL(w.s) && !strings.HasPrefix(w.s, "/"):
			c.unmodelled(w.s)
			return
		case !probe && (format == "?" || ffmpegElsewhere[format]):
			c.unmodelled("-f " + format + " " + w.s + " (writes where its name says, not to it)")
			return
		case probe && (ffmpegListFormats[format] || format == "" && !w.hole && playlistName(w.s)):
			c.unmodelled("-f " + format + " " + w.s + " (reads the files the list names)")
			return
		case probe && format == "lavfi":
			if !filterGraphKnown(w) {
				c.unmodelled("-f lavfi " + w.s)
				return
			}
		case probe:
			c.a.read(w, c.span)
		default:
			c.makes(w)
		}
		format = ""
	}
}

// encoderParamsKnown reports x264's or x265's parameters (KEY=VALUE,
// separated by :) none of which names a file the encoder reads or writes:
// stats= and csv= (written, over a document as well), dump-yuv=, recon=,
// analysis-save= and -load=, qpfile=, zonefile=, a Dolby Vision RPU.
func encoderParamsKnown(v word) bool {
	if v.hole {
		return false
	}
	for _, kv := range strings.Split(v.s, ":") {
		key, _, _ := strings.Cut(strings.ToLower(kv), "=")
		for _, f := range []string{"stats", "csv", "dump", "recon", "analysis", "file", "rpu", "dhdr10", "scaling-list", "lambda"} {
			if strings.Contains(key, f) {
				return false
			}
		}
	}
	return true
}

// ffmpegListFormats are the input formats whose file names other files
// (a concat list, an HLS or DASH playlist): what ffmpeg then reads is
// not in the words.
var ffmpegListFormats = map[string]bool{"concat": true, "hls": true, "applehttp": true, "dash": true, "?": true}

// playlistName reports an input ffmpeg takes for a list of other files
// by its extension: an HLS playlist, a concat script, a DASH manifest.
func playlistName(s string) bool {
	switch strings.ToLower(path.Ext(s)) {
	case ".m3u8", ".m3u", ".ffconcat", ".mpd":
		return true
	}
	return false
}

// ffmpegElsewhere are the output formats that write where their output
// name's text says rather than to it: tee (out.mp4|/other/file, each with
// options of its own) and fifo (another muxer's output).
var ffmpegElsewhere = map[string]bool{"tee": true, "fifo": true}

// pandocCommand rates pandoc by pandocRow, and a PDF made by it as
// unmodelled: pandoc runs a PDF engine (pdflatex, wkhtmltopdf …), which
// reads what raw LaTeX or HTML in the input names into the document. A
// reader or writer given as a Lua file (-f reader.lua, -t writer.lua) is
// Lua code pandoc runs (os.execute among it). The values are read as
// pandoc reads them: -o FILE, -oFILE, --output=FILE, --output FILE, and
// at the end of a bundle of flags (-so out.pdf, -sto pdf).
func pandocCommand(c *call) {
	from, sandboxed := "", false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		s := w.s
		opt, val, has := "", "", false
		switch {
		case w.hole && !strings.HasPrefix(s, "-"):
			continue // an operand computed at run time
		case s == "--sandbox" || s == "--sandbox=true":
			sandboxed = true
			continue
		case strings.HasPrefix(s, "--"):
			opt, val, has = strings.Cut(s, "=")
		case strings.HasPrefix(s, "-") && len(s) > 1:
			// A bundle: flags until the first option that takes a value,
			// which takes the rest of the word, or the next word.
			for j := 1; j < len(s); j++ {
				if strings.IndexByte("ofrtwMV", s[j]) >= 0 {
					opt, val, has = "-"+s[j:j+1], s[j+1:], j+1 < len(s)
					break
				}
			}
		default:
			continue
		}
		if opt == "" {
			continue
		}
		val = strings.ToLower(val)
		if strings.Contains(val, rate.HoleMark) {
			val = "?" // -so"$X": computed at run time
		}
		label := w.s
		if !has && i+1 < len(c.args) {
			if c.args[i+1].hole {
				val = "?"
			} else {
				val = strings.ToLower(c.args[i+1].s)
			}
			label += " " + c.args[i+1].s
		}
		switch opt {
		case "-o", "--output", "-t", "-w", "--to", "--write":
			if val == "?" || val == "pdf" || strings.HasSuffix(val, ".pdf") || strings.HasPrefix(val, "beamer") || strings.HasPrefix(val, "context") {
				if val == "?" {
					c.unmodelled(label + " (computed at run time: a PDF engine may run)")
					return
				}
				c.unmodelled(label + " (a PDF engine runs)")
				return
			}
		}
		if opt == "-f" || opt == "-r" || opt == "--from" || opt == "--read" {
			from = val
		}
		switch opt {
		case "-f", "-r", "--from", "--read", "-t", "-w", "--to", "--write":
			if val == "?" || strings.Contains(val, ".lua") || strings.Contains(val, "/") {
				c.unmodelled(label + " (a custom reader or writer, Lua code pandoc runs)")
				return
			}
		}
	}
	if !sandboxed && pandocIncludes(from, operands(c.args)) {
		c.unmodelled("(a LaTeX, reStructuredText or Org input reads the files its \\input, include and #+INCLUDE name, unless --sandbox)")
		return
	}
	pandocRow.run(c)
}

// pandocIncludes reports an input read by a reader that follows the
// input's own includes (LaTeX's \input and \include, reStructuredText's
// include directive, Org's #+INCLUDE), by -f or else by an operand's
// extension: what those name is read into the output, outside every word.
func pandocIncludes(from string, ops []word) bool {
	reader := func(f string) bool {
		f, _, _ = strings.Cut(f, "+")
		f, _, _ = strings.Cut(f, "-")
		return f == "latex" || f == "rst" || f == "org" || f == "?"
	}
	if from != "" {
		return reader(from)
	}
	for _, w := range ops {
		switch strings.ToLower(path.Ext(w.s)) {
		case ".tex", ".latex", ".ltx", ".rst", ".org":
			return true
		}
	}
	return false
}

// pandocRow is pandoc's: it reads its operands and prints the document, or
// writes it to -o; filters, engines, templates, includes and resources are
// unmodelled (code run, other files read into the output, the network).
var pandocRow = outputs(doesWith(effect.Of(effect.Create), "converts documents", "sNp", "ofrtwMV",
	`--output= --from= --read= --to= --write= --standalone --toc --table-of-contents --toc-depth=
	--metadata= --variable= --number-sections --wrap= --columns= --highlight-style= --no-highlight
	--shift-heading-level-by= --top-level-division= --eol= --dpi= --tab-stop= --preserve-tabs --strip-comments
	--section-divs --ascii --id-prefix= --title-prefix= --markdown-headings= --reference-links --quiet
	--verbose --fail-if-warnings --list-input-formats --list-output-formats --list-extensions --help --version
	--sandbox --sandbox=`),
	outSpec{opts: []string{"-o", "--output"}})
