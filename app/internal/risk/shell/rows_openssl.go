package shell

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// openssl, by subcommand (the OpenSSL 3 manuals: openssl-x509(1),
// openssl-req(1), openssl-rsa(1), openssl-pkey(1), openssl-genpkey(1),
// openssl-genrsa(1), openssl-enc(1), openssl-dgst(1), openssl-s_client(1),
// openssl-rand(1), openssl-passwd(1), openssl-verify(1), openssl-pkcs12(1),
// openssl-ec(1), openssl-ecparam(1), openssl-crl(1), openssl-pkeyutl(1),
// openssl-asn1parse(1), openssl-prime(1), openssl-speed(1),
// openssl-version(1)).
// Each subcommand has an option model: the options that only say what to
// print or how to encode, and the options whose value is a file it reads
// or writes, rated by where the file is. What it prints goes back to the
// agent: a key read from a credential store is a secret read. The options
// that load native code or settings not analysed declare it
// (opensslEffects). A subcommand without a model is not modelled:
// Dangerous.

// opensslSub is one subcommand's model, with the options whose value is a
// file it reads and those whose value is a file it writes.
type opensslSub struct {
	m      *opts
	reads  map[string]bool
	writes map[string]bool
}

// opensslCommon are the options of every subcommand (openssl(1), "Provider
// options", "Random state options"); what -engine, the providers and
// -config do is in opensslEffects.
const opensslCommon = "-help -propquery= -rand= -writerand= -engine= -provider= -provider-path= -keygen_engine= -ssl_client_engine= -config= -crl_download"

// opensslEffects are the options, of any subcommand, that load code or
// settings not analysed.
var opensslEffects = map[string]optEffect{
	"-engine":            optFx(effect.LoadCode, "loads an engine, native code that is not analysed"),
	"-provider":          optFx(effect.LoadCode, "loads a provider, native code that is not analysed"),
	"-provider-path":     optFx(effect.LoadCode, "loads providers from the folder it names: native code that is not analysed"),
	"-keygen_engine":     optFx(effect.LoadCode, "loads an engine, native code that is not analysed"),
	"-ssl_client_engine": optFx(effect.LoadCode, "loads an engine, native code that is not analysed"),
	"-config":            optFx(effect.Unknown, "takes settings from a file that is not analysed, which may load engines or providers"),
	"-crl_download":      optFx(effect.Fetch, "fetches certificate revocation lists from the addresses the certificates name"),
}

// opensslSends are s_client's options that send what they name.
var opensslSends = map[string]optEffect{
	"-early_data": optFx(effect.Upload, "sends the file it names to the server before the handshake ends"),
}

// opensslModel is a subcommand's model: its options (single-dash words,
// "-in=" taking a value), the files its options read and write, and the
// effects of its own options besides opensslEffects.
func opensslModel(words, reads, writes string, own ...map[string]optEffect) opensslSub {
	effects := opensslEffects
	if len(own) > 0 {
		effects = maps.Clone(opensslEffects)
		for _, m := range own {
			maps.Copy(effects, m)
		}
	}
	return opensslSub{m: &opts{long: opensslCommon + " " + words, effects: effects}, reads: set(reads), writes: set(writes)}
}

// Options shared by the key subcommands: where the key comes from and goes
// to, and its passwords.
const opensslKeyIO = "-in= -out= -inform= -outform= -passin= -passout= -text -noout -pubin -pubout -traditional"

var opensslSubs = map[string]opensslSub{
	"x509": opensslModel(`-in= -out= -inform= -outform= -noout -text -subject -issuer -dates -startdate -enddate -serial
		-fingerprint -hash -subject_hash -issuer_hash -subject_hash_old -issuer_hash_old -ocspid -ocsp_uri -email -purpose
		-pubkey -modulus -alias -ext= -certopt= -nameopt= -dateopt= -checkend= -checkhost= -checkemail= -checkip= -req
		-x509toreq -copy_extensions= -signkey= -key= -keyform= -passin= -days= -not_before= -not_after= -set_serial= -CA=
		-CAform= -CAkey= -CAkeyform= -CAserial= -CAcreateserial -extfile= -extensions= -clrext -trustout -addtrust=
		-addreject= -clrtrust -clrreject -setalias= -preserve_dates -new -subj= -force_pubkey= -badsig -next_serial
		-sigopt= -vfyopt= -multi -ext=`,
		"-in -signkey -key -CA -CAkey -extfile -force_pubkey", "-out -CAserial"),
	"req": opensslModel(`-in= -out= -inform= -outform= -passin= -passout= -text -noout -pubkey -verify -new -newkey= -nodes
		-noenc -key= -keyform= -keyout= -x509 -x509v1 -CA= -CAkey= -days= -not_before= -not_after= -set_serial= -subj=
		-multivalue-rdn -section= -extensions= -reqexts= -addext= -copy_extensions= -precert -utf8 -batch -verbose -quiet
		-newhdr -nameopt= -reqopt= -modulus -sigopt= -vfyopt= -pkeyopt= -subject`,
		"-in -key -CA -CAkey", "-out -keyout"),
	"rsa": opensslModel(opensslKeyIO+` -modulus -check -RSAPublicKey_in -RSAPublicKey_out -pvk-strong -pvk-weak -pvk-none`,
		"-in", "-out"),
	"pkey": opensslModel(opensslKeyIO+` -text_pub -check -pubcheck -ec_conv_form= -ec_param_enc= -encopt=`, "-in", "-out"),
	"genpkey": opensslModel(`-out= -outform= -outpubkey= -pass= -algorithm= -pkeyopt= -genparam -paramfile= -text -quiet
		-verbose`, "-paramfile", "-out -outpubkey"),
	"genrsa": opensslModel(`-out= -passout= -F4 -f4 -3 -primes= -verbose -quiet -traditional`, "", "-out"),
	"enc": opensslModel(`-in= -out= -pass= -e -d -a -A -base64 -z -p -P -k= -kfile= -K= -iv= -S= -md= -iter= -pbkdf2 -salt
		-nosalt -nopad -debug -bufsize= -v -none -list -ciphers -saltlen= -skeyopt= -skeymgmt=`, "-in -kfile", "-out"),
	"dgst": opensslModel(`-c -r -hex -binary -d -debug -list -out= -sign= -keyform= -passin= -verify= -prverify=
		-signature= -sigopt= -hmac= -mac= -macopt= -fips-fingerprint -xoflen= -engine_impl`,
		"-sign -verify -prverify -signature", "-out"),
	"rand":   opensslModel(`-out= -hex -base64`, "", "-out"),
	"passwd": opensslModel(`-1 -5 -6 -apr1 -aixmd5 -crypt -salt= -in= -stdin -noverify -quiet -table -reverse`, "-in", ""),
	"verify": opensslModel(`-CAfile= -CApath= -CAstore= -no-CAfile -no-CApath -no-CAstore -untrusted= -trusted= -CRLfile=
		-show_chain -verbose -purpose= -verify_hostname= -verify_email= -verify_ip= -attime= -check_ss_sig -crl_check
		-crl_check_all -partial_chain -x509_strict -issuer_checks -policy= -explicit_policy -inhibit_any -inhibit_map
		-verify_depth= -verify_auth_level= -verify_name= -no_check_time -allow_proxy_certs -ignore_critical
		-policy_check -policy_print -nameopt= -suiteB_128_only -suiteB_128 -suiteB_192 -use_deltas -extended_crl
		-no_alt_chains -trusted_first -vfyopt= -sm2-id= -sm2-hex-id= -opt=`,
		"-CAfile -untrusted -trusted -CRLfile", ""),
	"s_client": opensslModel(`-connect= -host= -port= -bind= -proxy= -proxy_user= -proxy_pass= -unix= -4 -6 -servername=
		-noservername -verify= -Verify= -verify_return_error -verify_quiet -verifyCAfile= -verifyCApath= -verifyCAstore=
		-cert= -certform= -CRL= -CRLform= -crl_download -cert_chain= -build_chain -chainCAfile= -chainCApath=
		-chainCAstore= -requestCAfile= -key= -keyform= -pass= -CAfile= -CApath= -CAstore= -no-CAfile -no-CApath
		-no-CAstore -dane_tlsa_domain= -dane_tlsa_rrdata= -dane_ee_no_namechecks -reconnect -showcerts -prexit
		-no-interactive -debug -tlsextdebug -msg -timeout -mtu= -no_ign_eof -ign_eof -quiet -brief -starttls= -xmpphost=
		-name= -sess_out= -sess_in= -serverinfo= -status -alpn= -nextprotoneg= -ct -noct -ctlogfile= -enable_pha
		-use_srtp= -srpuser= -srppass= -srp_lateuser -srp_moregroups -srp_strength= -ktls -tfo -psk= -psk_identity=
		-psk_session= -nbio -nbio_test -crlf -state -trace -security_debug -security_debug_verbose -showcerts -ssl3
		-tls1 -tls1_1 -tls1_2 -tls1_3 -no_ssl3 -no_tls1 -no_tls1_1 -no_tls1_2 -no_tls1_3 -dtls -dtls1 -dtls1_2 -sctp
		-sctp_label_bug -fallback_scsv -async -maxfraglen= -max_send_frag= -split_send_frag= -max_pipelines=
		-read_buf= -ignore_unexpected_eof -no_tx_cert_comp -no_rx_cert_comp -bugs -comp -no_comp -no_ticket
		-serverpref -legacy_renegotiation -no_renegotiation -legacy_server_connect -no_legacy_server_connect
		-no_resumption_on_reneg -no_etm -allow_no_dhe_kex -prefer_no_dhe_kex -prioritize_chacha -strict -sigalgs=
		-client_sigalgs= -groups= -curves= -named_curve= -cipher= -ciphersuites= -min_protocol= -max_protocol=
		-record_padding= -debug_broken_protocol -no_middlebox -x509_strict -partial_chain -verify_hostname=
		-verify_email= -verify_ip= -verify_depth= -purpose= -attime= -check_ss_sig -crl_check -crl_check_all
		-ignore_critical -trusted_first -no_alt_chains -use_deltas -verify_name= -auth_level= -msgfile= -keylogfile=
		-early_data=`,
		"-cert -key -CAfile -sess_in -psk_session -chainCAfile -verifyCAfile -requestCAfile -cert_chain -CRL -serverinfo -ctlogfile -early_data",
		"-sess_out -msgfile -keylogfile", opensslSends),
	"pkcs12": opensslModel(`-in= -out= -passin= -passout= -password= -twopass -export -noout -nokeys -nocerts -noenc -nodes
		-info -clcerts -cacerts -chain -inkey= -certfile= -name= -caname= -CAfile= -CApath= -CAstore= -no-CAfile
		-no-CApath -no-CAstore -keypbe= -certpbe= -descert -macalg= -iter= -noiter -nomaciter -maciter -nomac
		-macsaltlen= -pbmac1_pbkdf2 -pbmac1_pbkdf2_md= -keyex -keysig -LMK -CSP= -legacy -jdktrust= -untrusted=`,
		"-in -inkey -certfile -CAfile -untrusted", "-out"),
	"ec":      opensslModel(opensslKeyIO+` -param_out -no_public -conv_form= -param_enc= -check`, "-in", "-out"),
	"ecparam": opensslModel(`-in= -out= -inform= -outform= -noout -text -check -check_named -name= -list_curves -conv_form= -param_enc= -no_seed -genkey`, "-in", "-out"),
	"crl": opensslModel(`-in= -out= -inform= -outform= -key= -keyform= -dateopt= -text -noout -hash -hash_old -fingerprint
		-crlnumber -issuer -lastupdate -nextupdate -nameopt= -CAfile= -CApath= -CAstore= -no-CAfile -no-CApath
		-no-CAstore -verify -gendelta=`, "-in -key -CAfile -gendelta", "-out"),
	"pkeyutl": opensslModel(`-in= -rawin -digest= -out= -secret= -sigfile= -inkey= -keyform= -passin= -pubin -certin -rev
		-sign -verify -verifyrecover -encrypt -decrypt -derive -kdf= -kdflen= -peerkey= -peerform= -pkeyopt=
		-pkeyopt_passin= -hexdump -asn1parse -encap -decap`, "-in -inkey -sigfile -peerkey", "-out -secret"),
	"asn1parse": opensslModel(`-in= -inform= -out= -noout -offset= -length= -i -oid= -dump -dlimit= -strparse= -genstr=
		-genconf= -strictpem -item=`, "-in -oid -genconf", "-out"),
	"prime":   opensslModel(`-hex -generate -bits= -safe -checks=`, "", ""),
	"speed":   {m: &opts{free: true}},
	"errstr":  {m: &opts{free: true}},
	"version": {m: &opts{free: true}},
	"list":    {m: &opts{free: true}},
	"help":    {m: &opts{free: true}},
	"ciphers": {m: &opts{free: true}},
}

// opensslNames are the names openssl takes for a cipher or a digest, as an
// option of enc, dgst and the key subcommands (-aes-256-cbc, -sha256), or
// as a subcommand of its own (openssl sha256 is openssl dgst -sha256).
var (
	opensslCipher = regexp.MustCompile(`^-?(aes|aria|bf|blowfish|camellia|cast|cast5|chacha20|des|des3|desx|idea|rc2|rc4|rc5|seed|sm4|id-aes)[0-9a-z-]*$`)
	opensslDigest = regexp.MustCompile(`^-?(sha|sha1|sha2|sha3|shake|md4|md5|mdc2|blake2b|blake2s|ripemd|rmd160|sm3|whirlpool|ssl3-)[0-9a-z-]*$`)
)

// opensslCommand rates openssl by its subcommand's model: options not in
// it are not modelled; files its options name are read or written, rated
// by where they are; an output over its own input empties that input;
// s_client's effect is what its input carries.
func opensslCommand(c *call) {
	i := 0
	for i < len(c.args) && strings.HasPrefix(c.args[i].s, "-") && !c.args[i].hole {
		i++
	}
	if i == len(c.args) {
		return // openssl alone (or openssl -help): its usage
	}
	if c.args[i].hole {
		c.add(effect.Of(effect.Unknown, effect.Computed), "openssl", "openssl %s: a subcommand computed at run time", rate.Display(c.args[i].s))
		return
	}
	name := strings.ToLower(c.args[i].s)
	args := c.args[i+1:]
	switch {
	case name == "base64" || opensslCipher.MatchString(name):
		name = "enc" // openssl aes-256-cbc, openssl base64: enc with that cipher
	case opensslDigest.MatchString(name):
		name = "dgst"
	}
	s, ok := opensslSubs[name]
	if !ok {
		c.add(effect.Of(effect.Unknown).On(name), "openssl", "openssl %s: a subcommand Airlock does not model; cannot tell what it does", rate.Display(name))
		return
	}
	sc := &call{a: c.a, name: "openssl " + name, args: opensslPlain(args), span: c.span, pc: c.pc}
	s.m.check(sc)
	if s.m.free {
		return
	}
	c.opensslFiles(s, name, args)
	if name == "s_client" {
		c.opensslConnect(args)
	}
}

// opensslPlain is args without the cipher and digest names, which every
// subcommand that takes one takes as an option: -aes-256-cbc, -sha256.
func opensslPlain(args []word) []word {
	out := make([]word, 0, len(args))
	for _, w := range args {
		if !w.hole && strings.HasPrefix(w.s, "-") && (opensslCipher.MatchString(w.s) || opensslDigest.MatchString(w.s)) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// opensslFiles rates the files a subcommand's options name: reads (a
// password from file:, a key from a credential store: secrets), writes
// (rated by where they are), and an output over its own input, which
// openssl empties before it reads it.
func (c *call) opensslFiles(s opensslSub, name string, args []word) {
	p := s.m.parse(opensslPlain(args))
	for _, opt := range slices.Sorted(maps.Keys(p.given)) { // reasons in one order, run after run
		v := p.given[opt]
		switch {
		case v.s == "" && !v.hole:
		case s.reads[opt]:
			c.a.read(v, c.span)
		case s.writes[opt] && !isDevice(v.s) && v.s != "-":
			c.a.write(v, c.span, "openssl "+name+" "+opt+" writes")
		case inList(opt, "-passin", "-passout", "-pass", "-kfile") && strings.HasPrefix(v.s, "file:"):
			c.a.read(word{s: v.s[len("file:"):], hole: v.hole, guess: v.guess, span: v.span}, c.span)
		case inList(opt, "-keyform", "-CAkeyform", "-inform") && strings.EqualFold(v.s, "engine"):
			c.add(effect.Of(effect.LoadCode), "option", "openssl %s %s engine: loads the key through an engine, native code that is not analysed", name, opt)
		}
	}
	if name == "dgst" || name == "verify" {
		for _, o := range p.operands() {
			c.a.read(o, c.span) // the files it digests or verifies
		}
	}
	in, hasIn := p.value("-in")
	out, hasOut := p.value("-out")
	if name == "enc" && hasIn && hasOut {
		// enc streams: its output is opened before its input is read.
		// The key subcommands read their input whole first (openssl rsa
		// -in key.pem -out key.pem rewrites the key in place).
		c.a.ontoInput(in, out, c.span, "openssl "+name)
	}
}

// opensslConnect rates s_client (openssl-s_client(1)): it opens a TLS
// connection and sends what its input holds. With no input (</dev/null)
// it only fetches the server's greeting and certificates; with text the
// agent wrote, that text goes out; with any other input (a file, a pipe,
// or one not known) what it reads leaves this Mac, and the connection
// stays open for the server to drive.
func (c *call) opensslConnect(args []word) {
	switch c.pc.stdin {
	case "devnull":
		c.add(effect.Of(effect.Fetch), "openssl-connect", "openssl s_client: opens a TLS connection and prints what the server sends; its input is empty")
	case "text":
		c.add(effect.Of(effect.Fetch), "openssl-connect", "openssl s_client: opens a TLS connection and sends the text it is given")
		c.a.egress("network", c.span, "openssl s_client: sends its input over the network")
	default:
		c.add(effect.Of(effect.Connect), "openssl-connect", "openssl s_client: opens a network connection that carries stdin")
		c.a.egress("network", c.span, "openssl s_client: sends stdin over the network")
	}
}
