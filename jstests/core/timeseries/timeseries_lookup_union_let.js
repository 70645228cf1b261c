/**
 * $lookup and $unionWith whose foreign side is a time-series collection: `let` variables
 * used in the sub-pipeline's $match/$expr, localField/foreignField joins, sub-pipelines
 * that group or sort, and nesting ($lookup from a time-series collection inside $unionWith).
 */
const ts = db[jsTestName() + "_ts"];
const hosts = db[jsTestName() + "_hosts"];
const t0 = ISODate("2024-05-01T00:00:00Z");

function setUp() {
    ts.drop();
    hosts.drop();
    assert.commandWorked(
        db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "host"}}));
    const docs = [];
    for (let i = 0; i < 30; i++) {
        docs.push({
            _id: i,
            t: new Date(t0.getTime() + i * 60000),
            host: "h" + (i % 3),
            v: i,
            tags: {region: i % 2 ? "east" : "west"},
        });
    }
    assert.commandWorked(ts.insert(docs));
    assert.commandWorked(hosts.insert([
        {_id: "h0", min: 10, region: "west"},
        {_id: "h1", min: 25, region: "east"},
        {_id: "h2", min: 100, region: "east"},
    ]));
}

function lookupWithLetOnMetaAndMeasurement() {
    const res = hosts
                    .aggregate([
                        {
                            $lookup: {
                                from: ts.getName(),
                                let: {h: "$_id", lo: "$min"},
                                pipeline: [
                                    {
                                        $match: {
                                            $expr: {
                                                $and: [
                                                    {$eq: ["$host", "$$h"]},
                                                    {$gte: ["$v", "$$lo"]}
                                                ]
                                            }
                                        }
                                    },
                                    {$sort: {v: 1}},
                                    {$project: {_id: 0, v: 1}},
                                ],
                                as: "m",
                            }
                        },
                        {$sort: {_id: 1}},
                    ])
                    .toArray();
    assert.eq(3, res.length);
    assert.eq([12, 15, 18, 21, 24, 27], res[0].m.map(x => x.v));
    assert.eq([25, 28], res[1].m.map(x => x.v));
    assert.eq([], res[2].m);
}

function lookupWithLetOnTimeAndGroup() {
    const res = hosts
                    .aggregate([
                        {$match: {_id: "h1"}},
                        {
                            $lookup: {
                                from: ts.getName(),
                                let: {since: {$add: [t0, 10 * 60000]}, h: "$_id"},
                                pipeline: [
                                    {$match: {$expr: {$gte: ["$t", "$$since"]}}},
                                    {$match: {$expr: {$eq: ["$host", "$$h"]}}},
                                    {$group: {_id: "$host", n: {$sum: 1}, top: {$max: "$v"}}},
                                ],
                                as: "agg",
                            }
                        },
                    ])
                    .toArray();
    assert.eq([{_id: "h1", n: 7, top: 28}], res[0].agg);
}

function lookupLocalForeignFieldPlusPipeline() {
    const res =
        hosts
            .aggregate([
                {
                    $lookup: {
                        from: ts.getName(),
                        localField: "region",
                        foreignField: "tags.region",
                        let: {h: "$_id"},
                        pipeline:
                            [{$match: {$expr: {$eq: ["$host", "$$h"]}}}, {$count: "n"}],
                        as: "c",
                    }
                },
                {$sort: {_id: 1}},
            ])
            .toArray();
    // h0 has even v (west), h1 odd v (east); h2 alternates: 5 east of 10.
    assert.eq([{n: 5}], res[0].c);
    assert.eq([{n: 5}], res[1].c);
    assert.eq([{n: 5}], res[2].c);
}

function unionWithSubPipeline() {
    const res = hosts
                    .aggregate([
                        {$project: {_id: 1}},
                        {
                            $unionWith: {
                                coll: ts.getName(),
                                pipeline: [
                                    {$match: {v: {$gte: 27}}},
                                    {$project: {_id: {$concat: ["m", {$toString: "$v"}]}}},
                                ],
                            }
                        },
                        {$sort: {_id: 1}},
                    ])
                    .toArray();
    assert.eq(["h0", "h1", "h2", "m27", "m28", "m29"], res.map(d => d._id));
}

function unionWithNestingLookupWithLet() {
    const res = db.aggregate([
                      {$documents: [{h: "h2"}]},
                      {
                          $unionWith: {
                              coll: hosts.getName(),
                              pipeline: [
                                  {$match: {_id: "h0"}},
                                  {
                                      $lookup: {
                                          from: ts.getName(),
                                          let: {h: "$_id"},
                                          pipeline: [
                                              {$match: {$expr: {$eq: ["$host", "$$h"]}}},
                                              {$sort: {t: -1}},
                                              {$limit: 1},
                                              {$project: {_id: 0, v: 1}},
                                          ],
                                          as: "last",
                                      }
                                  },
                              ],
                          }
                      },
                  ])
                  .toArray();
    assert.eq(2, res.length);
    assert.eq([{v: 27}], res[1].last);
}

function foreignExplainUnpacksBuckets() {
    const exp = hosts.explain().aggregate([{
        $lookup: {
            from: ts.getName(),
            let: {h: "$_id"},
            pipeline: [{$match: {$expr: {$eq: ["$host", "$$h"]}}}],
            as: "m"
        }
    }]);
    assert(exp.stages.some(s => s.$lookup), tojson(exp));
}

setUp();
lookupWithLetOnMetaAndMeasurement();
lookupWithLetOnTimeAndGroup();
lookupLocalForeignFieldPlusPipeline();
unionWithSubPipeline();
unionWithNestingLookupWithLet();
foreignExplainUnpacksBuckets();
