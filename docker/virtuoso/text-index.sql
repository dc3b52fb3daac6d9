-- Run once, when the Virtuoso volume is first initialized (the image's /initdb.d), with the
-- registry's SPARQL_TEXT_INDEX=virtuoso: listings' texts (the objects of urn:registry:text:t,
-- src/search/store/textGraph.ts) go into Virtuoso's free-text index, which finds `q`'s candidates
-- in place of one triple per word; the search API's texts (the objects of urn:registry:search:t,
-- src/search/store/searchGraph.ts) likewise find its full-text queries' candidates. The index takes
-- new texts in batches; the registry's store writer fills it after each of its batches, before
-- recording its position, so the procedure is granted to the SPARQL user. No noise words: every word of a text is findable (the server's
-- working directory holds no noise.txt).
DB.DBA.RDF_OBJ_FT_RULE_ADD (null, 'urn:registry:text:t', 'registry');
DB.DBA.RDF_OBJ_FT_RULE_ADD (null, 'urn:registry:search:t', 'registry-search');
GRANT EXECUTE ON DB.DBA.VT_INC_INDEX_DB_DBA_RDF_OBJ TO "SPARQL";
GRANT EXECUTE ON DB.DBA.VT_BATCH_REAL_PROCESS_1_DB_DBA_RDF_OBJ TO "SPARQL";
GRANT EXECUTE ON DB.DBA.VT_BATCH_PROCESS_DB_DBA_RDF_OBJ TO "SPARQL";
