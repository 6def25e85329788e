_kafka_offsets_completion() {
    local IFS=$'
'
    COMPREPLY=( $( env COMP_WORDS="${COMP_WORDS[*]}" \
                   COMP_CWORD=$COMP_CWORD \
                   _KAFKA_OFFSETS_COMPLETE=complete_bash $1 ) )
    return 0
}

complete -o default -F _kafka_offsets_completion kafka-offsets
