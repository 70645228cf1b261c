/**
 * Helpers shared by query jstests.
 *
 * seededRandom(seed): a small linear congruential generator, so that random test data is
 *   the same on every run: `.int(n)` in [0, n), `.unit()` in [0, 1).
 * planStages(plan): every stage object of an explain plan tree (inputStage, inputStages,
 *   queryPlan), root first.
 */
globalThis.seededRandom = function seededRandom(seed) {
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    return {int: (n) => next() % n, unit: () => next() / 2147483648};
};

globalThis.planStages = function planStages(plan) {
    const out = [];
    (function walk(p) {
        if (!p || typeof p !== "object")
            return;
        if (p.stage)
            out.push(p);
        walk(p.inputStage);
        walk(p.queryPlan);
        (p.inputStages || []).forEach(walk);
    })(plan);
    return out;
};
