// A module may import the top-level names of a library that is still a classic script (an
// upstream tree whose libraries are older than its tests): the script runs once, as a script,
// and its declarations are both globals and the module's imports.
import {kLegacyAnswer, legacyDouble} from "jstests/libs/legacy_shell_script_for_test.js";

assert.eq(7, kLegacyAnswer);
assert.eq(14, legacyDouble(kLegacyAnswer));
assert.eq(7, globalThis.kLegacyAnswer, "the script's var is a global, as load() makes it");
