package shell

import "strings"

// ffmpeg's filter graphs (-vf, -af, -filter, and the input of -f lavfi)
// are read as ffmpeg reads them (ffmpeg-filters(1), "Filtergraph syntax"):
// filters separated by , and ;, each NAME=ARGS with [labels] around it,
// its arguments KEY=VALUE or positional, separated by :. Quotes ('…') and
// backslashes escape at every level, so 'mo'vie and mo\vie name the movie
// source. A graph is known only when every filter is one of
// ffmpegFilters, which change the frames and samples they are given and
// nothing else, and no argument's key names a file (textfile, filename,
// stats_file, log_path …; drawtext's fontfile given a font by its name
// excepted): filters that read other files (movie,
// subtitles, sendcmd, lut3d, curves' psfile), write them (vidstabdetect,
// libvmaf, psnr, signature, metadata's file) or load code (frei0r,
// ladspa, lv2, dnn) are not.

// ffmpegFilters are the filters a graph may hold and stay known.
var ffmpegFilters = set(`scale crop fps format transpose hflip vflip rotate pad setpts setsar setdar trim split
	null copy fade eq hue unsharp yadif bwdif drawbox drawgrid drawtext overlay palettegen paletteuse thumbnail
	tile boxblur gblur deband colorspace colorchannelmixer negate reverse select showinfo setfield tpad framerate
	minterpolate mpdecimate cropdetect blackdetect zscale hqdn3d nlmeans noise vignette lut lutrgb lutyuv
	chromakey colorkey edgedetect loop xfade blend hstack vstack xstack concat fieldorder deinterlace smartblur
	sharpen colorbalance colorlevels curves vibrance hwupload hwdownload scale_vt framestep settb fifo
	volume atempo aresample aformat afade atrim asetpts apad amix amerge pan loudnorm dynaudnorm acompressor
	highpass lowpass bandpass bandreject equalizer silencedetect silenceremove areverse asetrate channelmap
	channelsplit aecho anull acopy asplit ebur128 volumedetect astats alimiter compand anlmdn afftdn adelay
	aloop asetnsamples earwax bass treble stereotools extrastereo crystalizer speechnorm agate acrossfade
	asettb afifo aselect join showwaves showspectrum`)

// filterGraphKnown reports whether the graph v holds only ffmpegFilters
// with arguments that name no file.
func filterGraphKnown(v word) bool {
	if v.hole {
		return false
	}
	for _, f := range splitGraph(v.s, ",;") {
		f = strings.TrimSpace(stripLabels(f))
		name, args, _ := cutUnescaped(f, '=')
		if name = strings.TrimSpace(unescapeFilter(name)); !ffmpegFilters[name] {
			return false
		}
		for _, arg := range splitGraph(args, ":") {
			key, val, ok := cutUnescaped(arg, '=')
			key = strings.ToLower(unescapeFilter(key))
			if ok && key == "fontfile" && fontFile(unescapeFilter(val)) {
				continue // drawtext's font, a font file by its name
			}
			if ok && (strings.Contains(key, "file") || strings.Contains(key, "path") || strings.Contains(key, "log") ||
				strings.Contains(key, "model") || key == "result" || key == "input" || key == "f") {
				return false
			}
		}
	}
	return true
}

// fontFile reports a path that names a font: one of the system's font
// folders, or a font's extension.
func fontFile(p string) bool {
	lower := strings.ToLower(p)
	for _, ext := range []string{".ttf", ".otf", ".ttc", ".dfont"} {
		if strings.HasSuffix(lower, ext) {
			return !strings.Contains(p, "/.")
		}
	}
	return false
}

// splitGraph splits s at each of seps outside quotes and not escaped by a
// backslash, keeping the quotes and backslashes in the parts.
func splitGraph(s, seps string) []string {
	var parts []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case c == '\'':
			quoted = !quoted
		case !quoted && strings.IndexByte(seps, c) >= 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// cutUnescaped cuts s at the first sep outside quotes and escapes.
func cutUnescaped(s string, sep byte) (before, after string, found bool) {
	if parts := splitGraph(s, string(sep)); len(parts) > 1 {
		return parts[0], s[len(parts[0])+1:], true
	}
	return s, "", false
}

// stripLabels takes the [labels] off either end of a filter.
func stripLabels(f string) string {
	f = strings.TrimSpace(f)
	for strings.HasPrefix(f, "[") {
		i := strings.IndexByte(f, ']')
		if i < 0 {
			return f
		}
		f = strings.TrimSpace(f[i+1:])
	}
	for strings.HasSuffix(f, "]") {
		i := strings.LastIndexByte(f, '[')
		if i < 0 {
			return f
		}
		f = strings.TrimSpace(f[:i])
	}
	return f
}

// unescapeFilter removes the quotes and backslashes ffmpeg removes.
func unescapeFilter(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '\'':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
