// Values and helpers as the legacy shell has them: JS undefined is sent as BSON undefined,
// String() of NumberLong and ObjectId gives their shell form, DBRef fields and fetch(), and
// the String/Number/RegExp/assert helpers upstream's tests call.
const coll = db.legacy_values;
coll.drop();

// undefined goes out as BSON undefined (type 6), at any depth; null stays null.
assert.commandWorked(coll.insert({_id: 1, a: undefined, b: [1, undefined, {c: undefined}], d: null}));
assert.eq(1, coll.find({a: {$type: "undefined"}}).itcount());
assert.eq(1, coll.find({"b.c": {$type: "undefined"}}).itcount());
assert.eq(1, coll.find({b: {$type: "undefined"}}).itcount());
assert.eq(0, coll.find({d: {$type: "undefined"}}).itcount());
assert.eq(1, coll.find({d: {$type: "null"}}).itcount());
assert.eq(undefined, coll.findOne().a);
assert(coll.findOne().hasOwnProperty("a"));
// An option given as undefined is not given (create's collation here).
assert.commandWorked(db.createCollection("legacy_values_undef", {collation: undefined}));
db.legacy_values_undef.drop();

// String forms.
const n = NumberLong(4);
assert.eq("NumberLong(4)", n.toString());
assert.eq("NumberLong(4)", tojson(n));
assert.eq(8, n + 4);
assert.eq('NumberLong("9223372036854775807")', String(NumberLong("9223372036854775807")));
const oid = ObjectId("4c1a478603eba73620000000");
assert.eq('ObjectId("4c1a478603eba73620000000")', oid.toString());
assert.eq("4c1a478603eba73620000000", oid.str);

// DBRef: $ref/$id/$db read and set, fetch() reads the document it names.
const other = db.legacy_values_other;
other.drop();
assert.commandWorked(other.insert([{_id: 5, v: "five"}, {_id: 6, v: "six"}]));
assert.commandWorked(coll.insert({_id: 2, link: new DBRef(other.getName(), 5)}));
const link = coll.findOne({_id: 2}).link;
assert.eq(other.getName(), link.$ref);
assert.eq(5, link.$id);
assert.eq("five", link.fetch().v);
link.$id = 6;
assert.eq("six", link.fetch().v);

// Helpers.
assert.eq("007", (7).zeroPad(3));
assert.eq("  ab", "ab".pad(4));
assert.eq("a\\.b\\*c", RegExp.escape("a.b*c"));
assert.doesNotContain(3, [1, 2]);
assert.throws(() => assert.doesNotContain(2, [1, 2]));

// A batch of writes larger than one message is split, as the legacy shell splits it.
const big = "x".repeat(6 * 1024 * 1024);
const bulk = coll.initializeUnorderedBulkOp();
for (let i = 0; i < 3; i++)
    bulk.insert({_id: 10 + i, big});
assert.eq(3, bulk.execute().nInserted);
assert.eq(3, coll.find({_id: {$gte: 10}}).itcount());

// A value's constructor is the shell's: a NumberInt $inc past 2^31 comes back a NumberLong.
assert.eq(NumberLong, NumberLong(5).constructor);
assert.eq(NumberInt, NumberInt(5).constructor);
assert.eq(ObjectId, ObjectId().constructor);
coll.drop();
assert.commandWorked(coll.insert({_id: 1, a: NumberInt(2147483647)}));
assert.commandWorked(coll.update({_id: 1}, {$inc: {a: NumberInt(1)}}));
assert.eq(NumberLong, coll.findOne().a.constructor);
assert.eq(NumberLong("2147483648"), coll.findOne().a);

// MinKey/MaxKey used uncalled are the values (stored and printed so); the Date, RegExp and
// Function prototypes are values of their types; ObjectIds carry isObjectId.
coll.drop();
assert.commandWorked(coll.insert({_id: 1, lo: MinKey, hi: MaxKey, d: Date.prototype, r: RegExp.prototype,
                                  f: Function.prototype}));
assert.eq(1, coll.find({lo: {$type: "minKey"}, hi: {$type: "maxKey"}}).itcount());
assert.eq(1, coll.find({d: {$type: "date"}, r: {$type: "regex"}, f: {$type: "javascript"}}).itcount());
assert.eq('{ "$minKey" : 1 }', tojson(MinKey));
assert.eq({_id: 1, lo: MinKey, hi: MaxKey}, coll.findOne({}, {lo: 1, hi: 1}));
assert(coll.findOne()._id !== undefined);
assert(new ObjectId().isObjectId);
