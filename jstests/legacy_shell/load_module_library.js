// A classic test script may load() a library that is an ES module (an upstream tree whose
// tests are older than its libraries): the module runs once as a script, its imports become
// load()s and its exports globals.
load("jstests/libs/legacy_shell_module_for_test.js");
assert.eq(42, kAnswer);
assert.eq("test.legacy_load_module", collectionFor("legacy_load_module").getFullName());
// Loading it again is a no-op (its declarations are not made twice).
load("jstests/libs/legacy_shell_module_for_test.js");
assert.eq(42, kAnswer);
