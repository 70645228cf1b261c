// The legacy shell runs files with import/export as ES modules, resolving "jstests/..."
// against the roots; load() runs classic scripts in the global scope.
import {collectionFor, kAnswer} from "jstests/libs/legacy_shell_module_for_test.js";

assert.eq(42, kAnswer);
const coll = collectionFor("legacy_module_imports");
coll.drop();
assert.commandWorked(coll.insert({a: 1}));
assert.eq(1, coll.find().itcount());
assert.eq("test.legacy_module_imports", coll.getFullName());
// load() of a classic script defines its globals.
load("jstests/libs/query_helpers.js");
assert.eq(typeof ErrorCodes.BadValue, "number");
assert.throws(() => ErrorCodes.NoSuchErrorCodeName);
