// Bridges between ES modules and classic scripts for jstests trees that mix library versions:
// an older test that load()s a library which is a module now, and a module that imports names
// from a library that is still a classic script. Both work on the top-level statements only,
// in the shape upstream's formatter gives them (one statement starts a line).
"use strict";

function isModule(src) {
    return /^\s*(import\s*[\w{*"'$]|export\s+(\{|default|const|let|var|function|class|async))/m.test(src);
}

// `import {a, b as c} from "x";` / `import "x";` at the start of a line.
const IMPORT_RE = /^import\s+(?:([\s\S]*?)\s+from\s+)?(["'])([^"']+)\2\s*;?/gm;
const EXPORT_LIST_RE = /^export\s*\{([^}]*)\}\s*;?/gm;
const EXPORT_DECL_RE = /^export\s+(default\s+)?(async\s+function|function|class|const|let|var)\b/gm;

function aliases(list) {
    // "a, b as c" -> "var c = b;" for every renamed binding (plain names are globals already).
    const out = [];
    for (const part of list.split(",")) {
        const m = /^\s*([\w$]+)\s+as\s+([\w$]+)\s*$/.exec(part);
        if (m && m[1] !== m[2]) out.push("var " + m[2] + " = " + m[1] + ";");
    }
    return out.join(" ");
}

// The module's source as a classic script: each import is a load() of its file (whose
// exports are then globals), each export declaration a global declaration.
function moduleAsScript(src) {
    let out = src.replace(IMPORT_RE, (all, clause, q, spec) => {
        let text = "load(" + JSON.stringify(spec) + ");";
        const named = clause && /\{([\s\S]*)\}/.exec(clause);
        if (named) text += " " + aliases(named[1]);
        const ns = clause && /\*\s*as\s+([\w$]+)/.exec(clause);
        if (ns) text += " var " + ns[1] + " = globalThis;";
        // Keep the line count, so that error lines still point at the file's own lines.
        return text + "\n".repeat((all.match(/\n/g) || []).length);
    });
    out = out.replace(EXPORT_LIST_RE, (all, list) => aliases(list) + "\n".repeat((all.match(/\n/g) || []).length));
    // let/const become var: a second script declaring the same name must not fail to load.
    out = out.replace(EXPORT_DECL_RE, (all, dflt, kind) => (kind === "const" || kind === "let") ? "var" : kind);
    return out;
}

// Names a classic script declares at its top level (column 0), which a module importing the
// script may ask for.
function topLevelNames(src) {
    const names = new Set();
    const re = /^(?:var|let|const|function\*?|class|async\s+function)\s+([A-Za-z_$][\w$]*)/gm;
    let m;
    while ((m = re.exec(src)) !== null) names.add(m[1]);
    return [...names];
}

// A module standing in for a classic script: it runs the script through load() (so its
// declarations are globals, as the script expects) and exports each top-level name.
function scriptAsModule(src, file) {
    const lines = ["globalThis.load(" + JSON.stringify(file) + ");"];
    topLevelNames(src).forEach((name, i) => {
        lines.push("const __v" + i + " = globalThis.__scriptGlobal(" + JSON.stringify(name) + ");");
        lines.push("export {__v" + i + " as " + name + "};");
    });
    return lines.join("\n") + "\n";
}

module.exports = {isModule, moduleAsScript, scriptAsModule, topLevelNames};
