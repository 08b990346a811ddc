#!/usr/bin/env bats
# File segments under long directories (format-spec.md 1, 2.6, Long
# directories; issue 40 item 12): a directory whose path leaves no room
# in a label's 75 bytes is named through a short name, a link
# $SHMIDS_SHORTDIR/shmids-<uid>/<tag>, which every reader follows only
# where its owner decides it.  Each test has a short-name directory of
# its own ($S, in /tmp: short) and a long directory ($L, over 200
# bytes), both removed in teardown ($S by tests/helper.bash's, $L in
# $T by bats).

load helper

# lsetup: $S (exported as SHMIDS_SHORTDIR, mode 1777 as /tmp) and $L, a
# directory of 200 bytes or more (real path), and $L2 another.
lsetup() {
	local d=$T/long
	S=$(mktemp -d /tmp/shmids-sd.XXXXXX)
	echo "$S" >> "$T/.dir"
	chmod 1777 "$S"
	export SHMIDS_SHORTDIR=$S
	while [ "${#d}" -lt 200 ]; do
		d=$d/a-rather-long-directory-name
	done
	mkdir -p "$d/x" "$d/y"
	L=$(realpath "$d/x")
	L2=$(realpath "$d/y")
	chmod -R a+rx "$T"
	chmod 1777 "$L" "$L2"
}

# Issue 40 item 12: a directory of about 40 bytes or more held no
# segment at all (the project's bench failed under a long TMPDIR).
@test "1, 2.6: a file segment under a 200-byte SHMIDS_DIR: made through a short name; read, listed and cleaned; the header's label area unchanged" {
	local l f u t py
	lsetup
	u=$(id -u)
	printf 'v 1 2 3\n' > in
	SHMIDS_DIR=$L runio in shm_import -k 1 -P "$P"
	status_is 0
	is "$(cat err)" "" "stderr"
	l=$(label_of out)
	like "$l" "$S/shmids-$u/??/shmids.$u.?????? ${P}v" "label"
	[ "${#l}" -le 75 ] || { echo "label of ${#l} bytes" >&2; false; }
	f=${l%% *}
	t=${f%/*}
	is "$(readlink "$t")" "$L" "the short name's text"
	is "$(stat -c '%a %u' "$S/shmids-$u")" "755 $u" "its directory"
	[ -f "$L/${f##*/}" ] || { echo "no file in $L" >&2; false; }
	# the header: the label, NUL, newline, NULs to 80 (format-spec.md 2)
	is "$(head -c 80 "$L/${f##*/}" | od -An -c | tr -s ' \n' '  ')" \
	    "$(printf '%s\0\n' "$l" | head -c 80 | cat - /dev/zero | head -c 80 | od -An -c | tr -s ' \n' '  ')" "label area"
	# readers need no setting
	cp out ref
	runio ref env -u SHMIDS_DIR "$BIN/shm-expand"
	status_is 0
	is "$(cat out)" "v 1 2 3" "shm-expand"
	run shmtool open "$l"
	like "$output" "f64 3 *" "shmids_open"
	if py=$(py_lib); then
		run env SHMIDS_LIB="$LIBSO" \
		    PYTHONPATH="$BATS_TEST_DIRNAME/../python" "$py" -c '
import shmids, sys
print(shmids.attach(sys.argv[1]).tolist())' "$l"
		is "$output" "[1.0, 2.0, 3.0]" "Python attach()"
	fi
	# another long directory: another short name
	run env SHMIDS_DIR="$L2" "$SHMTOOL" create "${P}w" f64 2
	status_is 0
	track "$output"
	[ "${output%/*}" != "$t" ] || { echo "one short name for two directories" >&2; false; }
	is "$(readlink "${output%/*}")" "$L2" "the second short name"
	# listed, and cleaned, under SHMIDS_DIR's real path
	SHMIDS_DIR=$L run --separate-stderr shm_ls -p
	status_is 0
	is "$(cut -f 15,16 <<< "$output")" "ready	$l" "shm-ls -p"
	SHMIDS_DIR=$L run --separate-stderr shm_rm -v -s 0 -N "${P}*"
	status_is 0
	is "$(vlabels <<< "$output")" "$l" "shm-rm -s"
	[ ! -e "$L/${f##*/}" ] || { echo "not removed" >&2; false; }
}

@test "2.6: a long directory's short name is made again under the same tag: the labels it carried read again" {
	local a b
	lsetup
	a=$(SHMIDS_DIR=$L _mk create "${P}a" f64 2)
	rm "${a%/*}"
	run shmtool open "$a"
	is "$output" ENOENT "the link removed"
	b=$(SHMIDS_DIR=$L _mk create "${P}b" f64 2)
	is "${b%/*}" "${a%/*}" "the same short name"
	run shmtool open "$a"
	like "$output" "f64 2 *" "read again"
}

@test "1, 2.6: a name too long even through the short name, and a directory too long with no short name: ENAMETOOLONG, in words" {
	local n room u
	lsetup
	u=$(id -u)
	# $S/shmids-<uid>/xx + /shmids.<uid>.XXXXXX + a space
	room=$((75 - ${#S} - 8 - ${#u} - 3 - 8 - ${#u} - 7 - 1))
	n=$(printf 'n%.0s' $(seq "$room"))
	run env SHMIDS_DIR="$L" "$SHMTOOL" create "$n" f64 1
	status_is 0
	is "${#output}" 75 "the longest label"
	shm_rm -f "$output"
	printf '%sm 1 2\n' "$n" > in
	SHMIDS_DIR=$L runio in shm_import -k 1
	status_is 1
	is "$(cat err)" "shm-import: stdin:1: ${n}m: the name is too long for a file segment in SHMIDS_DIR: its label, through a short name for the directory, has room for a name of $room bytes"
	same_file in out
	# no short name to be had: SHMIDS_SHORTDIR missing
	printf 'v 1 2\n' > in
	SHMIDS_SHORTDIR=$S/none SHMIDS_DIR=$L runio in shm_import -k 1
	status_is 1
	is "$(cat err)" "shm-import: stdin:1: v: SHMIDS_DIR ${L:0:64}... is too long for a label (${#L} bytes; a label holds 75 with its name), and no short name can be made for it: $S/none/shmids-$u cannot be made: No such file or directory; point SHMIDS_DIR at a shorter path, or unset it for System V segments"
	[ -z "$(ls -A "$L")" ] || { echo "left in $L: $(ls -A "$L")" >&2; false; }
}

@test "2.6: a short name is followed only where its owner decides it: another user's directory, one others may write, a link of another's: refused by writers and readers" {
	local l f t u
	need_user
	lsetup
	u=$(id -u)
	l=$(SHMIDS_DIR=$L _mk create "${P}a" f64 2)
	f=${l%% *}
	t=${f%/*}
	# the short names' directory writable by others: a link there may be
	# anyone's
	chmod 777 "$S/shmids-$u"
	run shmtool open "$l"
	is "$output" ESTALE "a directory others may write"
	printf 'x shmids %s\n' "$l" > ref
	runio ref shm_expand
	status_is 1
	same_file ref out
	# its owner's next writer takes its mode back
	run env SHMIDS_DIR="$L" "$SHMTOOL" create "${P}b" f64 1
	status_is 0
	track "$output"
	is "$(stat -c %a "$S/shmids-$u")" 755 "mode taken back"
	run shmtool open "$l"
	like "$output" "f64 2 *" "read again"
	# a link that is another user's, in the owner's directory
	chown -h "$TESTUSER" "$t"
	run shmtool open "$l"
	is "$output" ESTALE "another user's link"
	chown -h "$u" "$t"
	# another user's directory where the writer's would go
	mv "$S/shmids-$u" "$S/moved"
	as_user mkdir "$S/shmids-$u"
	as_user ln -s "$L" "$S/shmids-$u/${t##*/}"
	run shmtool open "$l"
	is "$output" ESTALE "a squatter's directory and link"
	printf 'v 1 2\n' > in
	SHMIDS_DIR=$L runio in shm_import -k 1
	status_is 1
	is "$(cat err)" "shm-import: stdin:1: v: SHMIDS_DIR ${L:0:64}... is too long for a label (${#L} bytes; a label holds 75 with its name), and no short name can be made for it: $S/shmids-$u belongs to uid $TESTUSER, not to you (root can remove it); point SHMIDS_DIR at a shorter path, or unset it for System V segments"
	rm -rf "$S/shmids-$u"
	mv "$S/moved" "$S/shmids-$u"
	run shmtool open "$l"
	like "$output" "f64 2 *" "its owner's again"
}

@test "2.6: a directory of middle length: short names only for names too long for it, both forms listed and cleaned" {
	local d m s u k n
	lsetup
	u=$(id -u)
	# a directory that leaves room for short names only: those longer go
	# through its short name ($S/shmids-<uid>/xx, shorter than it)
	d=$(realpath "$T")/m
	while [ "${#d}" -lt $((${#S} + 8 + ${#u} + 4)) ]; do d=$d/m; done
	mkdir -p "$d"
	k=$((75 - ${#d} - 8 - ${#u} - 7 - 1 - ${#P}))
	[ "$k" -ge 1 ] || skip "the test directory's path is too long"
	s=$(SHMIDS_DIR=$d _mk create "${P}s" f64 1)
	n=$(printf 'm%.0s' $(seq $((k + 1))))
	m=$(SHMIDS_DIR=$d _mk create "$P$n" f64 1)
	like "$s" "$d/shmids.*" "a short name: the directory itself"
	like "$m" "$S/shmids-*" "a long one: through the short name"
	SHMIDS_DIR=$d run --separate-stderr shm_ls -p -N "${P}*"
	status_is 0
	is "$(cut -f 16 <<< "$output" | sort)" "$(printf '%s\n' "$s" "$m" | sort)" "shm-ls -p"
	SHMIDS_DIR=$d run --separate-stderr shm_rm -v -s 0 -N "${P}*"
	status_is 0
	is "$(vlabels <<< "$output" | sort)" "$(printf '%s\n' "$s" "$m" | sort)" "shm-rm -s"
	[ -z "$(ls -A "$d")" ] || { echo "left: $(ls -A "$d")" >&2; false; }
}

@test "1, 2.6: a SHMIDS_DIR with a blank holds no id: a file named as ours there is not listed, and nothing is made there" {
	local d l
	d="$T/my dir"
	mkdir "$d"
	l=$(_mk create "${P}a" f64 1)
	# a file named as ours, with a header (whatever its label says)
	"$SHMTOOL" header "${l%% *}" > "$d/shmids.$(id -u).AbCdEf"
	SHMIDS_DIR=$d run --separate-stderr shm_ls -a -p
	status_is 0
	[[ $output != *"my dir"* ]] || { echo "listed: $output" >&2; false; }
	run env SHMIDS_DIR="$d" "$SHMTOOL" create "${P}b" f64 1
	is "$output" EINVAL "made"
}
