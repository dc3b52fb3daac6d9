-- Run once, when the Virtuoso volume is first initialized (the image's /initdb.d).
-- The registry writes through the standard SPARQL Update and Graph Store endpoints (/sparql,
-- /sparql-graph-crud) as Virtuoso's SPARQL user; only the registry's replicas reach this server
-- (it publishes no port), so the plain endpoints are granted writes rather than digest-authenticated
-- ones (/sparql-auth), which the registry's client (HTTP Basic) does not speak.
GRANT SPARQL_UPDATE TO "SPARQL";
