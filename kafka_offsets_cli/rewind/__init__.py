"""Consumer-group offset resets: the pure plan (:mod:`.plan`) and the ``rewind`` use case that
reads the group and commits the plan (:mod:`.execute`)."""
