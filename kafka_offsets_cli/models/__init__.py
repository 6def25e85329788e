"""The frozen models every layer shares: offsets (:mod:`.offsets`), topics and partitions
(:mod:`.topics`), consumer groups (:mod:`.groups`)."""
