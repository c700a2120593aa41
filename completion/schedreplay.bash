# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for schedreplay: commands, each command's options (read
# from its --help, which is printed from the one option table in
# src/cli/cli-opt.c), policy names (from 'schedreplay policies'), the
# values of --format, --reader and --ndjson-format, and file names.
# Installed as share/bash-completion/completions/schedreplay.

# _schedreplay_values WORDS: complete $cur from WORDS
_schedreplay_values()
{
	COMPREPLY=($(compgen -W "$1" -- "$cur"))
}

# _schedreplay_list WORDS: complete the last element of a comma-separated $cur
_schedreplay_list()
{
	local head="" last=$cur w
	if [[ $cur == *,* ]]; then
		head=${cur%,*},
		last=${cur##*,}
	fi
	COMPREPLY=()
	for w in $(compgen -W "$1" -- "$last"); do
		COMPREPLY+=("$head$w")
	done
	[[ ${#COMPREPLY[@]} -eq 1 ]] && compopt -o nospace 2>/dev/null
	return 0
}

_schedreplay()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin=${COMP_WORDS[0]} cmd="" help i j

	# --opt=value: bash splits at '=' (COMP_WORDBREAKS)
	if [[ $cur == = ]]; then
		cur=""
	elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		_schedreplay_values "$("$bin" --help 2>/dev/null |
			awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { f = 0 }')
			--help --version"
		return 0
	fi
	for ((j = i + 1; j < COMP_CWORD; j++)); do
		if [[ ${COMP_WORDS[j]} == -- ]]; then
			if [[ $cmd == record && $j -eq $((COMP_CWORD - 1)) ]]; then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return 0
		fi
	done
	help=$("$bin" "$cmd" --help 2>/dev/null)
	case $prev in
	--old | --new | --kernel-policy)
		_schedreplay_list "$("$bin" policies 2>/dev/null | awk '/^[a-z]/ { print $1 }') none"
		return 0 ;;
	--format)
		_schedreplay_values "auto dat trace report perf"
		return 0 ;;
	--reader)
		_schedreplay_values "auto fast libtracecmd"
		return 0 ;;
	--ndjson-format)
		_schedreplay_values "nested flat"
		return 0 ;;
	esac
	# an option that takes a value ("--opt ARG" or "-o, --output ARG" in --help)
	if [[ $prev == -* ]] &&
	   grep -qE -- "(^  |, )$prev [^ ]" <<<"$help"; then
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0
	fi
	if [[ $cur == -* ]]; then
		_schedreplay_values "$(grep -oE -- '^  (-[a-zA-Z], )?--[a-z][a-z-]*' <<<"$help" |
			grep -oE -- '--[a-z][a-z-]*|-[a-zA-Z]')"
		return 0
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
	return 0
}
complete -o filenames -o bashdefault -F _schedreplay schedreplay
