_kafka_offsets_completion() {
    local IFS=$'\n'
    local reply
    reply=$(env COMP_WORDS="${COMP_WORDS[*]}" \
                COMP_CWORD=$COMP_CWORD \
                _KAFKA_OFFSETS_COMPLETE=complete_bash "$1")
    case $? in
        0) COMPREPLY=(); [[ -n $reply ]] && mapfile -t COMPREPLY <<< "$reply" ;;  # no glob expansion
        80) COMPREPLY=(); compopt -o default ;;
        81) COMPREPLY=(); compopt -o dirnames ;;
        *) COMPREPLY=() ;;
    esac
    return 0
}

complete -F _kafka_offsets_completion kafka-offsets
