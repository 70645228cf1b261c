// A classic script (no import or export) that jstests/legacy_shell/module_imports_script_lib.js
// imports as a module: the shell runs it as a script and exports its top-level names.
var kLegacyAnswer = 7;
function legacyDouble(x) {
    return 2 * x;
}
