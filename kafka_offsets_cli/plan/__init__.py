"""From a parsed request to ListOffsets answers: the selection applied to metadata
(:mod:`.resolve`), the requests per leader (:mod:`.requests`), the use cases over ListOffsets
(:mod:`.queries`) and the re-asking of withheld answers (:mod:`.settle`)."""
