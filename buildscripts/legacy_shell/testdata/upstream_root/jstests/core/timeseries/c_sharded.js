// @tags: [requires_sharding, requires_fcv_81]
assert(false);
