package interp

// The tables: per language, the calls that remove, write, read, run
// commands, reach the network, run code from text or decode data, by the
// qualified name the code calls them by (from each language's library
// reference). "m.*" stands for every call of module m; ".name" for a
// method of that name on any object. A call no row names is not an effect
// this package reports, and the shell analyzer keeps such code unseen.

// Row makers: what a call does to which argument.
func rm(arg int) api       { return api{kind: Remove, arg: arg} }
func rmTree(arg int) api   { return api{kind: Remove, arg: arg, tree: true} }
func rmOpt(opt string) api { return api{kind: Remove, opt: opt} }
func wr(arg int) api       { return api{kind: Write, arg: arg} }
func ap(arg int) api       { return api{kind: Append, arg: arg} }
func rd(arg int) api       { return api{kind: Read, arg: arg} }
func open(mode int) api    { return api{kind: Read, how: hOpen, mode: mode} }
func sh() api              { return api{kind: Run, how: hShell} }
func system() api          { return api{kind: Run, how: hSystem} }
func argv(opt string) api  { return api{kind: Run, how: hArgv, opt: opt} }
func net() api             { return api{kind: Net} }
func ev() api              { return api{kind: Eval, how: hEval} }
func dec() api             { return api{kind: Decode, arg: argNone} }
func withName(a api, names string) api {
	a.named = names
	return a
}

// cut: a truncation, which destroys what lies past the new end as a
// removal does (DESIGN: truncate is removing data).
func cut(arg int) api { return api{kind: Remove, arg: arg} }

// cp: a copy or move from the first argument, which it reads, to the
// argument at to, which it writes; cpObj from the object the method is
// called on (Path(p).rename(q)).
func cp(to int) api    { return api{kind: Write, arg: to, copies: true} }
func cpObj(to int) api { return api{kind: Write, arg: to, copies: true, fromObj: true} }

var tables = map[Lang]map[string]api{Python: python, Perl: perl, Ruby: ruby, PHP: php, JS: js, Swift: swift, Lua: lua, R: rLangTable}

var python = map[string]api{
	"os.remove": rm(0), "os.unlink": rm(0), "os.rmdir": rm(0), "os.removedirs": rm(0), "shutil.rmtree": rmTree(0),
	"Path.unlink": rm(argRecv), "Path.rmdir": rm(argRecv), "os.truncate": cut(0), ".unlink": rm(argRecv), ".rmdir": rm(argRecv),
	".write_text": wr(argRecv), ".write_bytes": wr(argRecv),
	"open": open(1), "io.open": open(1), "codecs.open": open(1), "builtins.open": open(1),
	"Path.open": {kind: Read, how: hOpen, arg: argRecv, mode: 0}, "os.open": {kind: Read, how: hOpenBits, mode: 1},
	"Path.write_text": wr(argRecv), "Path.write_bytes": wr(argRecv), "Path.read_text": rd(argRecv), "Path.read_bytes": rd(argRecv),
	"Path.rename": cpObj(0), "Path.replace": cpObj(0), "Path.symlink_to": wr(argRecv),
	"shutil.copy": cp(1), "shutil.copy2": cp(1), "shutil.copyfile": cp(1), "shutil.move": cp(1), "shutil.copytree": cp(1),
	"os.rename": cp(1), "os.replace": cp(1), "os.symlink": wr(1), "os.link": wr(1),
	"os.system": sh(), "os.popen": sh(), "subprocess.getoutput": sh(), "subprocess.getstatusoutput": sh(), "commands.getoutput": sh(),
	"subprocess.run": argv("shell"), "subprocess.call": argv("shell"), "subprocess.check_call": argv("shell"),
	"subprocess.check_output": argv("shell"), "subprocess.Popen": argv("shell"), "pty.spawn": argv("shell"),
	"asyncio.create_subprocess_shell": sh(), "asyncio.create_subprocess_exec": {kind: Run, how: hExecl},
	"os.execv": {kind: Run, how: hExecv}, "os.execve": {kind: Run, how: hExecv}, "os.execvp": {kind: Run, how: hExecv},
	"os.execvpe": {kind: Run, how: hExecv}, "os.execl": {kind: Run, how: hExecl}, "os.execlp": {kind: Run, how: hExecl},
	"os.execle": {kind: Run, how: hExecl}, "os.execlpe": {kind: Run, how: hExecl},
	// os.spawn*(mode, path, …): the program is the second argument.
	"os.spawnl": {kind: Run, how: hExecl, arg: 1}, "os.spawnlp": {kind: Run, how: hExecl, arg: 1},
	"os.spawnle": {kind: Run, how: hExecl, arg: 1}, "os.spawnlpe": {kind: Run, how: hExecl, arg: 1},
	"os.spawnv": {kind: Run, how: hExecv, arg: 1}, "os.spawnvp": {kind: Run, how: hExecv, arg: 1},
	"os.spawnve": {kind: Run, how: hExecv, arg: 1}, "os.spawnvpe": {kind: Run, how: hExecv, arg: 1},
	"os.posix_spawn": {kind: Run, how: hExecv}, "os.posix_spawnp": {kind: Run, how: hExecv},
	"socket.*": net(), "urllib.request.*": net(), "urllib.urlopen": net(), "urllib2.*": net(), "requests.*": net(),
	"http.client.*": net(), "httplib.*": net(), "ftplib.*": net(), "smtplib.*": net(), "telnetlib.*": net(),
	"httpx.*": net(), "aiohttp.*": net(), "xmlrpc.client.*": net(), "paramiko.*": net(), "websocket.*": net(), "urllib3.*": net(),
	"urllib.request.urlretrieve": {kind: Write, how: hFetchTo, arg: 1},
	"exec":                       ev(), "eval": ev(), "compile": ev(), "execfile": ev(), "runpy.run_path": ev(), "pickle.loads": ev(), "marshal.loads": ev(),
	"base64.b64decode": dec(), "base64.b32decode": dec(), "base64.b85decode": dec(), "base64.a85decode": dec(),
	"base64.decodebytes": dec(), "base64.standard_b64decode": dec(), "base64.urlsafe_b64decode": dec(), "codecs.decode": dec(),
	"binascii.unhexlify": dec(), "binascii.a2b_base64": dec(), "bytes.fromhex": dec(), "zlib.decompress": dec(),
	"gzip.decompress": dec(), "bz2.decompress": dec(), "lzma.decompress": dec(),
}

var perl = map[string]api{
	"unlink": rm(argAll), "rmdir": rm(0), "File.Path.rmtree": {kind: Remove, arg: argAll, tree: true}, "File.Path.remove_tree": {kind: Remove, arg: argAll, tree: true},
	"truncate": cut(0), "open": {kind: Read, how: hPerlOpen}, "sysopen": {kind: Read, how: hOpenBits, arg: 1, mode: 2},
	"File.Copy.copy": cp(1), "File.Copy.move": cp(1), "File.Copy.cp": cp(1), "File.Copy.mv": cp(1), "rename": cp(1),
	"symlink": wr(1), "link": wr(1),
	"system": system(), "exec": system(), "readpipe": sh(), "IPC.Open3.open3": {kind: Run, how: hExecl, arg: 0},
	"IO.Socket.INET": net(), "IO.Socket.IP": net(), "IO.Socket.SSL": net(), "IO.Socket.*": net(), "socket": net(), "connect": net(),
	"LWP.UserAgent": net(), "LWP.*": net(), "HTTP.Tiny": net(), "HTTP.Tiny.*": net(), "Net.*": net(), "getstore": net(),
	"eval": ev(), "do": {kind: Eval, how: hEvalStr},
	"MIME.Base64.decode_base64": dec(), "decode_base64": dec(), "Compress.Zlib.uncompress": dec(), "uncompress": dec(),
	"pack": dec(), "unpack": dec(),
	"LWP.Simple.get": net(), "LWP.Simple.getstore": net(), "LWP.Simple.getprint": net(), "LWP.Simple.mirror": net(),
	"LWP.Simple.head": net(), "rmtree": {kind: Remove, arg: argAll, tree: true},
	"remove_tree": {kind: Remove, arg: argAll, tree: true},
}

var ruby = map[string]api{
	"File.delete": rm(argAll), "File.unlink": rm(argAll), "FileUtils.rm": rm(argAll), "FileUtils.rm_f": rm(argAll),
	"FileUtils.rm_r": {kind: Remove, arg: argAll, tree: true}, "FileUtils.rm_rf": {kind: Remove, arg: argAll, tree: true},
	"FileUtils.remove": rm(argAll), "FileUtils.remove_file": rm(0), "FileUtils.remove_dir": rmTree(0),
	"FileUtils.remove_entry": rmTree(0), "FileUtils.remove_entry_secure": rmTree(0), "FileUtils.rmdir": rm(0),
	"FileUtils.rmtree": {kind: Remove, arg: argAll, tree: true}, "Dir.rmdir": rm(0), "Dir.delete": rm(0), "Dir.unlink": rm(0),
	"Pathname.delete": rm(argRecv), "Pathname.unlink": rm(argRecv), "Pathname.rmtree": rmTree(argRecv),
	"File.write": {kind: Write, how: hAppendOpt}, "IO.write": {kind: Write, how: hAppendOpt}, "File.binwrite": wr(0), "IO.binwrite": wr(0),
	"File.open": open(1), "File.new": open(1), "IO.sysopen": open(1), "open": {kind: Read, how: hRubyOpen, mode: 1},
	"Kernel.open": {kind: Read, how: hRubyOpen, mode: 1}, "URI.open": net(), "OpenURI.*": net(),
	"FileUtils.cp": cp(1), "FileUtils.cp_r": cp(1), "FileUtils.mv": cp(1), "FileUtils.move": cp(1), "FileUtils.copy": cp(1),
	"FileUtils.install": cp(1), "FileUtils.ln": wr(1), "FileUtils.ln_s": wr(1), "FileUtils.ln_sf": wr(1), "FileUtils.copy_file": cp(1),
	"File.rename": cp(1), "File.symlink": wr(1), "File.truncate": cut(0),
	"File.read": rd(0), "IO.read": rd(0), "File.readlines": rd(0), "IO.readlines": rd(0), "File.foreach": rd(0),
	"IO.foreach": rd(0), "File.binread": rd(0),
	"system": system(), "exec": system(), "spawn": system(), "Kernel.system": system(), "Kernel.exec": system(),
	"Kernel.spawn": system(), "Process.spawn": system(), "PTY.spawn": system(), "IO.popen": argv(""), "Open3.*": system(),
	"TCPSocket": net(), "TCPSocket.open": net(), "Socket": net(), "Socket.tcp": net(), "UDPSocket": net(),
	"Net.HTTP": net(), "Net.HTTP.*": net(), "Net.FTP": net(), "Net.SMTP": net(), "HTTParty.*": net(), "Faraday.*": net(),
	"RestClient.*": net(), "Excon.*": net(),
	"eval": ev(), "Kernel.eval": ev(), "instance_eval": {kind: Eval, how: hEvalStr}, "class_eval": {kind: Eval, how: hEvalStr},
	"module_eval": {kind: Eval, how: hEvalStr}, "binding.eval": ev(), "Marshal.load": ev(),
	"Base64.decode64": dec(), "Base64.strict_decode64": dec(), "Base64.urlsafe_decode64": dec(), "Zlib.Inflate.inflate": dec(),
	"Zlib.inflate": dec(),
}

var php = map[string]api{
	"unlink": rm(0), "rmdir": rm(0), "file_put_contents": {kind: Write, how: hAppendOpt, opt: "FILE_APPEND"},
	"fopen": open(1), "copy": cp(1), "rename": cp(1), "symlink": wr(1), "link": wr(1), "move_uploaded_file": wr(1),
	"file_get_contents": rd(0), "file": rd(0), "readfile": rd(0), "parse_ini_file": rd(0),
	"system": sh(), "exec": sh(), "shell_exec": sh(), "passthru": sh(), "popen": sh(), "proc_open": argv(""),
	"pcntl_exec": {kind: Run, how: hSpawn},
	"fsockopen":  net(), "pfsockopen": net(), "stream_socket_client": net(), "socket_create": net(), "socket_connect": net(),
	"curl_init": net(), "curl_exec": net(), "mail": net(), "ftp_connect": net(),
	"eval": ev(), "assert": {kind: Eval, how: hEvalStr}, "create_function": {kind: Eval, how: hEval, arg: 1, named: ""},
	"base64_decode": dec(), "gzinflate": dec(), "gzuncompress": dec(), "gzdecode": dec(), "str_rot13": dec(),
	"hex2bin": dec(), "convert_uudecode": dec(), "unserialize": ev(),
	"array_map": {how: hCallback}, "call_user_func": {how: hCallback}, "call_user_func_array": {how: hCallback},
	"array_walk": {how: hCallback}, "register_shutdown_function": {how: hCallback},
}

var js = map[string]api{
	"fs.rmSync": rmOpt("recursive"), "fs.rm": rmOpt("recursive"), "fs.promises.rm": rmOpt("recursive"),
	"fs.rmdirSync": rmOpt("recursive"), "fs.rmdir": rmOpt("recursive"), "fs.promises.rmdir": rmOpt("recursive"),
	"fs.unlinkSync": rm(0), "fs.unlink": rm(0), "fs.promises.unlink": rm(0), "fs-extra.removeSync": rmTree(0),
	"fs-extra.remove": rmTree(0), "fs-extra.emptyDirSync": rmTree(0), "fs-extra.emptyDir": rmTree(0), "rimraf": rmTree(0),
	"rimraf.sync": rmTree(0), "rimraf.rimrafSync": rmTree(0), "del": rmTree(0), "del.sync": rmTree(0), "del.deleteSync": rmTree(0),
	"Deno.remove": rmOpt("recursive"), "Deno.removeSync": rmOpt("recursive"),
	"fs.writeFileSync": {kind: Write, how: hAppendOpt}, "fs.writeFile": {kind: Write, how: hAppendOpt},
	"fs.promises.writeFile": {kind: Write, how: hAppendOpt}, "fs.appendFileSync": ap(0), "fs.appendFile": ap(0),
	"fs.promises.appendFile": ap(0), "fs.createWriteStream": {kind: Write, how: hAppendOpt},
	"fs.copyFileSync": cp(1), "fs.copyFile": cp(1), "fs.cpSync": cp(1), "fs.cp": cp(1), "fs.renameSync": cp(1),
	"fs.rename": cp(1), "fs.symlinkSync": wr(1), "fs.symlink": wr(1), "fs.truncateSync": cut(0), "fs.truncate": cut(0),
	"fs.promises.truncate": cut(0), "Deno.truncate": cut(0), "Deno.truncateSync": cut(0),
	"fs.openSync": open(1), "fs.open": open(1), "fs-extra.outputFileSync": wr(0), "fs-extra.outputFile": wr(0),
	"Deno.writeTextFile": {kind: Write, how: hAppendOpt, opt: "append"}, "Deno.writeTextFileSync": {kind: Write, how: hAppendOpt, opt: "append"},
	"Deno.writeFile": {kind: Write, how: hAppendOpt, opt: "append"}, "Deno.writeFileSync": {kind: Write, how: hAppendOpt, opt: "append"},
	"Bun.write":       wr(0),
	"fs.readFileSync": rd(0), "fs.readFile": rd(0), "fs.promises.readFile": rd(0), "fs.createReadStream": rd(0),
	"Deno.readTextFile": rd(0), "Deno.readTextFileSync": rd(0), "Deno.readFile": rd(0), "Bun.file": rd(0),
	"child_process.exec": sh(), "child_process.execSync": sh(), "child_process.spawn": {kind: Run, how: hSpawn},
	"child_process.spawnSync": {kind: Run, how: hSpawn}, "child_process.execFile": {kind: Run, how: hSpawn},
	"child_process.execFileSync": {kind: Run, how: hSpawn}, "child_process.fork": {kind: Run, how: hSpawn},
	"Deno.run": {kind: Run, how: hArgv, program: "cmd"}, "Deno.Command": {kind: Run, how: hSpawn, program: "args"},
	"Bun.spawn": {kind: Run, how: hArgv, program: "cmd"}, "Bun.spawnSync": {kind: Run, how: hArgv, program: "cmd"},
	"fetch": net(), "http.request": net(), "http.get": net(), "https.request": net(), "https.get": net(),
	"net.connect": net(), "net.createConnection": net(), "net.Socket": net(), "tls.connect": net(), "dgram.createSocket": net(),
	"axios": net(), "axios.*": net(), "got": net(), "got.*": net(), "node-fetch": net(), "WebSocket": net(),
	"XMLHttpRequest": net(), "Deno.connect": net(), "Deno.connectTls": net(), "undici.*": net(), "superagent.*": net(),
	"eval": ev(), "Function": ev(), "vm.runInNewContext": ev(), "vm.runInThisContext": ev(), "vm.runInContext": ev(),
	"vm.Script": ev(), "vm.compileFunction": ev(), "setTimeout": {kind: Eval, how: hEvalStr}, "setInterval": {kind: Eval, how: hEvalStr},
	"Buffer.from": {kind: Decode, how: hDecodeArg}, "atob": dec(), "zlib.inflateSync": dec(), "zlib.gunzipSync": dec(),
	"zlib.unzipSync": dec(), "zlib.brotliDecompressSync": dec(), "zlib.inflateRawSync": dec(),
}

var swift = map[string]api{
	"FileManager.default.removeItem": withName(rmTree(0), "atPath|at"), ".removeItem": withName(rmTree(0), "atPath|at"),
	".trashItem": withName(api{kind: Trash}, "at"), "unlink": rm(0), "remove": rm(0), "rmdir": rm(0),
	".createFile": withName(wr(0), "atPath"), ".write": withName(wr(argNone), "toFile|to"), ".copyItem": withName(wr(1), "toPath|to"),
	".moveItem": withName(wr(1), "toPath|to"), ".replaceItemAt": wr(0), ".createSymbolicLink": withName(wr(0), "atPath|at"),
	"FileHandle": withName(wr(argNone), "forWritingAtPath|forUpdatingAtPath|forWritingTo|forUpdating"),
	"String":     withName(rd(argNone), "contentsOfFile|contentsOf"), "Data": withName(rd(argNone), "contentsOf"),
	".contents": withName(rd(argNone), "atPath"), "fopen": open(1),
	"Process.run": {how: hProcess, kind: Run}, "Process.launch": {how: hProcess, kind: Run}, "NSTask.launch": {how: hProcess, kind: Run},
	"Process.launchedProcess": withName(argv(""), "launchPath"), "system": sh(), "popen": sh(),
	"URLSession.*": net(), "URLSession.shared.dataTask": net(), "URLSession.shared.data": net(), "NWConnection": net(),
	"getStreamsToHost": net(), ".getStreamsToHost": net(), "CFStreamCreatePairWithSocketToHost": net(),
	"NSAppleScript": withName(ev(), "source"), "dlopen": ev(),
}

var lua = map[string]api{
	"os.remove": rm(0), "os.rename": wr(1), "io.open": open(1), "io.output": wr(0), "io.lines": rd(0), "io.input": rd(0),
	"os.execute": sh(), "io.popen": sh(), "lfs.rmdir": rm(0),
	"socket.*": net(), "socket.http.*": net(), "http.request": net(), "ssl.*": net(),
	"load": ev(), "loadstring": ev(), "dofile": {kind: Eval, how: hEvalStr}, "loadfile": {kind: Eval, how: hEvalStr},
	"mime.unb64": dec(),
}

var rLangTable = map[string]api{
	"unlink": rmOpt("recursive"), "base.unlink": rmOpt("recursive"), "file.remove": rm(argAll), "fs.file_delete": rm(0),
	"fs.dir_delete": rmTree(0),
	"writeLines":    withName(wr(1), "con"), "cat": {kind: Write, how: hAppendOpt, arg: argNone, named: "file", opt: "append"},
	"write": {kind: Write, how: hAppendOpt, arg: 1, named: "file", opt: "append"}, "write.csv": withName(wr(1), "file"),
	"write.table": withName(wr(1), "file"), "write.csv2": withName(wr(1), "file"), "saveRDS": withName(wr(1), "file"),
	"save": withName(wr(argNone), "file"), "sink": {kind: Write, how: hAppendOpt, arg: 0, named: "file", opt: "append"},
	"file.copy": withName(wr(1), "to"), "file.rename": withName(wr(1), "to"), "file.symlink": wr(1), "file": open(1),
	"download.file": {kind: Write, how: hFetchTo, arg: 1, named: "destfile"},
	"readLines":     rd(0), "readRDS": rd(0), "read.csv": rd(0), "read.table": rd(0), "scan": withName(rd(0), "file"),
	"source": {kind: Eval, how: hEvalStr}, "sys.source": {kind: Eval, how: hEvalStr},
	"system": withName(sh(), "command"), "shell": sh(), "pipe": sh(), "system2": {kind: Run, how: hSpawn, program: "args"},
	"url": net(), "httr.*": net(), "httr2.*": net(), "curl.*": net(), "socketConnection": net(), "RCurl.*": net(),
	"parse": withName(ev(), "text"), "str2lang": ev(), "str2expression": ev(),
	"base64enc.base64decode": dec(), "jsonlite.base64_dec": dec(), "memDecompress": dec(), "rawToChar": dec(),
}
