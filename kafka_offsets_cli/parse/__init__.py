"""Parsing what the user types, pure and without I/O: times and durations (:mod:`.times`,
:mod:`.durations`), offset specs (:mod:`.specs`) and the topic/partition selection grammar
(:mod:`.selection`, with Java's string semantics in :mod:`.java`)."""
