"""How to reach a cluster: client settings (:mod:`.settings`), Java properties files
(:mod:`.properties`), the config file's cluster profiles (:mod:`.profiles`) and the one
resolver that applies their precedence (:mod:`.resolver`)."""
