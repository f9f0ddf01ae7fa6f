# vramlab.bash - bash completion for vramlab. The candidates come from the binary itself
# (`vramlab __complete -- WORD...`, built from its command table), so commands, options, option
# values, lesson ids, exercise ids and profiles never drift from what vramlab accepts.
# Installed by `make install` to share/bash-completion/completions/vramlab; to try it from a
# source tree: `. tui/cli/vramlab.bash` (it completes build/vramlab too).
_vramlab() {
    # the words up to the cursor, split on blanks only: "--lang=z" stays one word
    local line=${COMP_LINE:0:COMP_POINT} words cur out
    read -ra words <<<"$line"
    case $line in *[[:blank:]]) words+=("") ;; esac
    [ ${#words[@]} -gt 0 ] || return
    cur=${COMP_WORDS[COMP_CWORD]}
    out=$("${words[0]}" __complete -- "${words[@]:1}" 2>/dev/null) || return
    local IFS=$'\n'
    case $out in
    @file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    @dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    *) COMPREPLY=($out) ;;
    esac
}
complete -F _vramlab vramlab build/vramlab
