/**
 * setupFiles of the `api` project: a deprecation met by code running in a test's own process (the
 * server's, and the drivers under it) throws where it is met, failing that test, so what a library
 * is about to drop shows here rather than at its upgrade (pg warns before its next major version
 * removes a query sent while another runs on a connection that does not pipeline).
 */
process.throwDeprecation = true;
