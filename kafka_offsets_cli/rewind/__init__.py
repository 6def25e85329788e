"""Consumer-group offset resets: the targets (:mod:`.target`), the pure plan (:mod:`.plan`), plan
files (:mod:`.planfile`), planning against a cluster (:mod:`.build`), the member explanations
(:mod:`.members`) and the checked commit (:mod:`.execute`)."""
