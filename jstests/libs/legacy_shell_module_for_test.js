// An ES module imported by jstests/legacy_shell/module_imports.js (tests the shell's
// "jstests/..." module resolution and that modules see the shell's globals).
export const kAnswer = 42;
export function collectionFor(name) {
    return db.getCollection(name);
}
