/**
 * @tags: [requires_timeseries]
 */
import {makeTs} from "jstests/core/timeseries/libs/helper.js";
const c = makeTs(db[jsTestName()]);
assert.commandWorked(c.insert({t: ISODate(), m: 1}));
assert.eq(1, c.find().itcount());
assert.commandFailedWithCode(db.runCommand({nope: 1}), ErrorCodes.CommandNotFound);
assert(ErrorCodes.isNetworkError(ErrorCodes.HostUnreachable));
