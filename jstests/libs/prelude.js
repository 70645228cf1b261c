/**
 * Loaded by resmoke before every jstest (paths are relative to the repository
 * root, which is the working directory of each mongosh process).
 * To run a test by hand against a server on port 27017:
 *   node_modules/.bin/mongosh --quiet mongodb://127.0.0.1:27017/test \
 *       jstests/libs/prelude.js jstests/core/<test>.js
 */
if (typeof TestData === "undefined") {
    globalThis.TestData = {};
}
load("jstests/libs/error_codes.js");
load("jstests/libs/assert.js");
load("jstests/libs/shell_compat.js");
