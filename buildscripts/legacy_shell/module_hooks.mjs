// ES-module resolution for jstests: `import ... from "jstests/libs/x.js"` (and "src/...")
// resolves against the configured roots (an upstream checkout first, then this repository).
import fs from "node:fs";
import path from "node:path";
import {pathToFileURL} from "node:url";

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
    // treats imported files as modules); Node would otherwise guess CommonJS.
    if (url.startsWith("file:") && url.endsWith(".js")) {
        const r = await nextLoad(url, Object.assign({}, context, {format: "module"}));
        return Object.assign(r, {format: "module", shortCircuit: true});
    }
    return nextLoad(url, context);
}
