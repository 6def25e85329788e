"""``kafka-offsets serve``'s machinery: a Prometheus endpoint over the features' renderers.

One collection at a time, cached for a minimum interval (:mod:`.cache`); a collection runs each
cluster's measures with their own renderers, a cluster that cannot be reached as its ``up 0``
series (:mod:`.collect`); the exporter's own series (:mod:`.metrics`); the HTTP server and its
graceful stop (:mod:`.http`). What a measure reads and how it renders is the front end's (``cli``).
"""
