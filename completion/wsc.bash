# SPDX-License-Identifier: MIT
# bash completion for wsc(8).
#
# Subcommands and their options are listed here (tests/tools/test_completion
# checks them against what `wsc CMD --help` prints); the calls of
# `wsc bench` and the experiments of `wsc klat` are asked of the wsc being
# completed (`wsc bench --list`, `wsc klat --list`), which needs no module,
# so that they always match the binary.  Only bash builtins are used: the
# bash-completion package's helpers are not required.

# The options of each subcommand, as its --help prints them.
_wsc_opts_info='-j --json -h --help'
# The other names an option is also taken by (wsc(8), OPTIONS) are listed
# too, as --help lists them.
_wsc_opts_bench='-n --iters -r --rounds --repetitions -c --cpus --cpu -s --size -j --json --csv -a --all -o --output --out -l --list -h --help'
_wsc_opts_bench_fit='-n --iters -r --rounds --repetitions -c --cpu --cpus -j --json --csv -h --help'
_wsc_opts_klat='-n --iters -c --cpus --cpu -j --json --csv -l --list -h --help'
_wsc_opts_cp='-n --transactions -s --size -t --threshold -r --rounds --repetitions -c --cpu --cpus --cold --dir --keep -p --programs --sweep --inject -j --json --csv -h --help'
_wsc_opts_ls='-l --long --conventional --compare -r --rounds --repetitions -j --json --csv --dir --keep -h --help'
_wsc_opts_trace='-p --pid --cgroup -a --all --advise --gap --recalibrate -e --calls -Z --failed --errno --ring -d --duration --interval -s --sort --time --top --by --hist --cold -o --output -j --json --csv --csv-tasks --openmetrics -h --help'
_wsc_opts_diff='--threshold --time --top -j --json -h --help'
# wsc trace's -e groups, and the errnos --errno most often wants (it takes
# any name glibc knows, or a number).
_wsc_trace_groups='%file %memory %signal %ipc %userdata %locking %other all'
_wsc_trace_errnos='EPERM ENOENT ESRCH EINTR EIO EBADF ECHILD EAGAIN ENOMEM EACCES EFAULT EBUSY EEXIST EXDEV ENOTDIR EISDIR EINVAL EMFILE ENOTTY ENOSPC ESPIPE EROFS EPIPE ERANGE ENAMETOOLONG ENOSYS ENOTEMPTY ELOOP ENODATA ETIME EOPNOTSUPP EADDRINUSE ECONNREFUSED ECONNRESET ETIMEDOUT EINPROGRESS'

# _wsc_list WSC CMD: the first word of each line of `WSC CMD --list`,
# comment lines left out.
_wsc_list()
{
	"$1" "$2" --list 2>/dev/null | while read -r name _; do
		case $name in
		'' | '#'*) ;;
		*) printf '%s\n' "$name" ;;
		esac
	done
}

# _wsc_cp_programs WSC: the program names of `wsc cp --help`.
_wsc_cp_programs()
{
	"$1" cp --help 2>/dev/null | while IFS= read -r line; do
		case $line in
		Programs*) seen=1 ;;
		'') [ -n "${seen:-}" ] && break ;;
		'  '[A-Z]*)
			[ -n "${seen:-}" ] || continue
			read -r name _ <<< "$line"
			printf '%s\n' "$name"
			;;
		esac
	done
}

# _wsc_words "WORDS": COMPREPLY from the blank- or newline-separated
# WORDS that start with $cur.
_wsc_words()
{
	mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur")
}

_wsc_files()
{
	mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	compopt -o filenames 2>/dev/null
}

_wsc_dirs()
{
	mapfile -t COMPREPLY < <(compgen -d -- "$cur")
	compopt -o filenames 2>/dev/null
}

_wsc()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local wsc=${COMP_WORDS[0]} cmd="" sub="" i w args=0 opts

	COMPREPLY=()
	# The wsc typed (build/wsc, ~/bin/wsc, wsc on PATH) answers --list.
	[[ $wsc == \~/* ]] && wsc=$HOME/${wsc:2}

	if ((COMP_CWORD == 1)); then
		if [[ $cur == -* ]]; then
			_wsc_words "-h --help -V --version"
		else
			_wsc_words "info bench klat cp ls trace diff"
		fi
		return 0
	fi
	cmd=${COMP_WORDS[1]}

	# The words between the subcommand and the cursor: the first
	# non-option word (bench fit, klat show), whether `--` came (trace's
	# command), and how many non-option words there were.
	for ((i = 2; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $cmd == trace && $w == -- ]]; then
			# trace's command and its arguments: complete as a
			# command line of their own.
			if ((i + 1 == COMP_CWORD)); then
				mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u)
			else
				_wsc_files
			fi
			return 0
		fi
		case $w in
		-*) ;;
		*)
			# Skip the value of an option that takes one.
			case ${COMP_WORDS[i - 1]} in
			-n | --iters | -c | --cpus | --cpu | -s | --size | --csv | -o | --out | \
				--transactions | -t | --threshold | -r | --repetitions | \
				--rounds | -p | --programs | --dir | --sweep | --inject | --pid | \
				--cgroup | -d | --duration | --sort | --output | -e | --calls | \
				--errno | --interval | --top | --time | --by | --csv-tasks | \
				--openmetrics) continue ;;
			esac
			((args == 0)) && sub=$w
			((args++))
			;;
		esac
	done

	# The value of the option before the cursor.
	case $cmd:$prev in
	*:--csv | bench:-o | bench:--output | bench:--out | trace:-o | trace:--output | trace:--csv-tasks | \
		trace:--openmetrics)
		if [[ $cmd == bench && $prev == --csv ]]; then
			_wsc_dirs	# bench --csv DIR: one file per call
		else
			_wsc_files
		fi
		return 0
		;;
	cp:--dir | ls:--dir)
		_wsc_dirs
		return 0
		;;
	cp:--sweep)
		_wsc_words "threshold n"
		return 0
		;;
	cp:--inject)
		_wsc_words "missing-source: unwritable-dest:"
		compopt -o nospace 2>/dev/null
		return 0
		;;
	cp:-p | cp:--programs)
		# A comma-separated list: complete the last name.
		local done=${cur%"${cur##*,}"} p list=()
		while IFS= read -r p; do
			list+=("$done$p")
		done < <(_wsc_cp_programs "$wsc")
		local IFS=$'\n'
		mapfile -t COMPREPLY < <(compgen -W "${list[*]}" -- "$cur")
		return 0
		;;
	trace:-s | trace:--sort)
		_wsc_words "total calls errors mean p50 p99 max name nr"
		return 0
		;;
	trace:--time | diff:--time)
		_wsc_words "cpu wall off"
		return 0
		;;
	trace:--by)
		_wsc_words "process thread"
		return 0
		;;
	trace:--errno)
		_wsc_words "$_wsc_trace_errnos"
		return 0
		;;
	trace:-e | trace:--calls)
		# A comma-separated list: complete the last item's group.
		local head=${cur%"${cur##*,}"} g list=()
		for g in $_wsc_trace_groups; do
			list+=("$head$g")
		done
		local IFS=$'\n'
		mapfile -t COMPREPLY < <(compgen -W "${list[*]}" -- "$cur")
		return 0
		;;
	diff:--threshold)
		# METRIC=LIMIT, a comma-separated list: the last item's metric.
		local head=${cur%"${cur##*,}"} m list=()
		for m in calls= errors= time= p50= p99= none; do
			list+=("$head$m")
		done
		local IFS=$'\n'
		mapfile -t COMPREPLY < <(compgen -W "${list[*]}" -- "$cur")
		compopt -o nospace 2>/dev/null
		return 0
		;;
	trace:--interval | trace:--top | trace:--gap | diff:--top)
		return 0	# a number
		;;
	trace:-p | trace:--pid)
		_wsc_words "$(cd /proc 2>/dev/null && compgen -G '[0-9]*')"
		return 0
		;;
	trace:--cgroup)
		_wsc_dirs
		return 0
		;;
	*:-n | *:--iters | *:-c | *:--cpus | *:--cpu | *:-s | *:--size | \
		*:--transactions | *:-t | *:--threshold | *:-r | *:--repetitions | \
		*:--rounds | *:-d | *:--duration)
		return 0	# a number
		;;
	esac

	case $cmd in
	info) opts=$_wsc_opts_info ;;
	bench)
		if [[ $sub == fit ]]; then
			opts=$_wsc_opts_bench_fit
		elif [[ $cur != -* ]] && ((args == 0)); then
			_wsc_words "$(_wsc_list "$wsc" bench) fit"
			return 0
		else
			opts=$_wsc_opts_bench
		fi
		;;
	klat)
		if [[ $cur != -* ]]; then
			if ((args == 0)); then
				_wsc_words "$(_wsc_list "$wsc" klat) show reset"
			elif ((args == 1)) && [[ $sub == show || $sub == reset ]]; then
				_wsc_words "$(_wsc_list "$wsc" klat)"
			fi
			return 0
		fi
		opts=$_wsc_opts_klat
		;;
	cp) opts=$_wsc_opts_cp ;;
	ls)
		if [[ $cur != -* ]]; then
			_wsc_dirs
			return 0
		fi
		opts=$_wsc_opts_ls
		;;
	trace)
		if [[ $cur != -* ]]; then
			return 0
		fi
		opts="$_wsc_opts_trace --"
		;;
	diff)
		if [[ $cur != -* ]]; then
			_wsc_files	# a report, or a folder of bench --all
			return 0
		fi
		opts=$_wsc_opts_diff
		;;
	*) return 0 ;;
	esac
	[[ $cur == -* ]] && _wsc_words "$opts"
	return 0
}

complete -F _wsc wsc
