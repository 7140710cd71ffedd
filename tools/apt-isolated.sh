# shellcheck shell=bash
# tools/apt-isolated.sh - sourced: apt through a private configuration (own sources.list,
# lists, cache and an empty dpkg status), so the host's apt and dpkg state are never touched.
#
#   . tools/apt-isolated.sh
#   detect_archives                 # sets MIRROR, SEC_MIRROR, KEYRING from the host's sources
#   apt_isolated_init DIR CODENAME  # DIR/{sources.list,lists,cache,state,status}
#   apt_opts DIR [ARCH]             # sets APT_OPTS=(...) for apt-get/apt-cache (ARCH: amd64)
#
# The archive host is derived from the machine's own apt configuration
# (/etc/apt/sources.list, sources.list.d/*.list and *.sources); override with
# PTBPF_VMTEST_MIRROR, PTBPF_VMTEST_SECURITY_MIRROR and PTBPF_VMTEST_KEYRING.
# The caller defines die() and log().

# Print "URI<TAB>SUITE<TAB>SIGNED-BY" for every enabled deb source of the host.
host_sources() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		# one-line format: deb [opts] uri suite comp...
		awk '
		/^[ \t]*deb[ \t]/ {
			sb = ""; i = 2
			if ($2 ~ /^\[/) {
				while (i <= NF) {
					if ($i ~ /signed-by=/) { sb = $i; sub(/.*signed-by=/, "", sb); sub(/\]$/, "", sb) }
					if ($i ~ /\]$/) { i++; break }
					i++
				}
			}
			if (i + 1 <= NF) printf "%s\t%s\t%s\n", $i, $(i+1), sb
		}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		# deb822 format: paragraphs of Field: value
		awk '
		function flush() {
			if (types ~ /(^|[ \t])deb([ \t]|$)/ && enabled !~ /^[ \t]*no/) {
				n = split(uris, u, /[ \t]+/); m = split(suites, s, /[ \t]+/)
				for (a = 1; a <= n; a++) for (b = 1; b <= m; b++)
					if (u[a] != "" && s[b] != "") printf "%s\t%s\t%s\n", u[a], s[b], sb
			}
			types = uris = suites = sb = enabled = ""
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		{
			line = $0; key = tolower(line); sub(/:.*/, "", key)
			val = line; sub(/^[^:]*:[ \t]*/, "", val)
			if (key == "types") types = val
			else if (key == "uris") uris = val
			else if (key == "suites") suites = val
			else if (key == "signed-by") sb = val
			else if (key == "enabled") enabled = tolower(val)
		}
		END { flush() }' "$f"
	done
}

# Find the archive (URI, keyring) and security archive of the host's Debian sources.
detect_archives() {
	local host_code="" src
	if [ -r /etc/os-release ]; then
		host_code=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	fi
	src=$(host_sources)
	MIRROR=${PTBPF_VMTEST_MIRROR:-}
	SEC_MIRROR=${PTBPF_VMTEST_SECURITY_MIRROR:-}
	KEYRING=${PTBPF_VMTEST_KEYRING:-}
	local uri suite sb
	while IFS=$'\t' read -r uri suite sb; do
		case "$suite" in
		*-security | */updates)
			[ -n "$SEC_MIRROR" ] || SEC_MIRROR=$uri
			;;
		"$host_code" | stable | oldstable | buster | bullseye | bookworm | trixie | forky)
			if [ -z "$MIRROR" ]; then
				MIRROR=$uri
				[ -n "$KEYRING" ] || KEYRING=$sb
			fi
			;;
		esac
	done <<<"$src"
	[ -n "$MIRROR" ] || die "no Debian archive found in /etc/apt/sources.list*; set PTBPF_VMTEST_MIRROR"
	MIRROR=${MIRROR%/}
	if [ -z "$SEC_MIRROR" ]; then
		SEC_MIRROR=${MIRROR}-security
	fi
	SEC_MIRROR=${SEC_MIRROR%/}
	if [ -z "$KEYRING" ] && [ -r /usr/share/keyrings/debian-archive-keyring.gpg ]; then
		KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
	fi
}

# Create DIR's private apt state for CODENAME (main and security); needs detect_archives.
apt_isolated_init() {
	local d=$1 code=$2 opt
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/state"
	: >"$d/status"
	if [ -n "$KEYRING" ]; then
		opt="[signed-by=$KEYRING] "
	else
		log "warning: no Debian archive keyring found; using [trusted=yes] for $code"
		opt="[trusted=yes] "
	fi
	{
		echo "deb ${opt}$MIRROR $code main"
		echo "deb ${opt}$SEC_MIRROR $code-security main"
	} >"$d/sources.list"
}

# shellcheck disable=SC2034 # APT_OPTS is for the caller
apt_opts() {
	local d=$1 arch=${2:-amd64}
	APT_OPTS=(
		-o "Dir::Etc::SourceList=$d/sources.list"
		-o "Dir::Etc::SourceParts=/dev/null"
		-o "Dir::Etc::Preferences=/dev/null"
		-o "Dir::Etc::PreferencesParts=/dev/null"
		-o "Dir::State=$d/state"
		-o "Dir::State::Lists=$d/lists"
		-o "Dir::State::status=$d/status"
		-o "Dir::Cache=$d/cache"
		-o "Dir::Cache::pkgcache="
		-o "Dir::Cache::srcpkgcache="
		-o "APT::Architecture=$arch"
		-o "APT::Architectures::=$arch"
		-o "APT::Sandbox::User=root"
		-o "Debug::NoLocking=1"
		-o "Acquire::Languages=none"
		-q
	)
}
