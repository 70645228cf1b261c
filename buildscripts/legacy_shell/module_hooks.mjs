// ES-module resolution for jstests: `import ... from "jstests/libs/x.js"` (and "src/...")
// resolves against the configured roots (an upstream checkout first, then this repository).
import fs from "node:fs";
import path from "node:path";
import {createRequire} from "node:module";
import {fileURLToPath, pathToFileURL} from "node:url";

const {isModule, scriptAsModule} = createRequire(import.meta.url)("./module_syntax.js");

let roots = [];

export async function initialize(data) {
    roots = data.roots;
}

export async function resolve(specifier, context, nextResolve) {
    if (/^(jstests|src)\//.test(specifier)) {
        for (const r of roots) {
            const full = path.join(r, specifier);
            if (fs.existsSync(full)) return {url: pathToFileURL(full).href, shortCircuit: true};
        }
        throw new Error("cannot import \"" + specifier + "\": no such file under " + roots.join(", "));
    }
    return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
    // Every .js file under the roots is an ES module when imported (upstream's shell
    // treats imported files as modules); Node would otherwise guess CommonJS. A file with no
    // import or export is a classic script of an older tree: it runs as one, through load(),
    // and a module standing in for it exports its top-level names.
    if (url.startsWith("file:") && url.endsWith(".js")) {
        const file = fileURLToPath(url);
        const src = fs.readFileSync(file, "utf8");
        const script = !isModule(src) && !file.split(path.sep).includes("node_modules");
        const source = script ? scriptAsModule(src, file) : src;
        return {format: "module", source, shortCircuit: true};
    }
    return nextLoad(url, context);
}
